"""Typed settings for the bot, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///poeppel.sqlite3"


class Settings(BaseSettings):
    """Everything the bot reads from its environment. See ``.env.example``."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    database_url: str = Field(default=DEFAULT_DATABASE_URL, alias="DATABASE_URL")
    dev_guild_id: int | None = Field(default=None, alias="DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    shard_count: int | None = Field(default=None, alias="SHARD_COUNT")
    shard_ids: str | None = Field(default=None, alias="SHARD_IDS")
    sync_commands: bool = Field(default=False, alias="SYNC_COMMANDS")
    # Bot moves: the worker processes that search (default: one per core of the machine),
    # the CPU seconds a bot may think per move, and how much lower the workers' priority is.
    bot_workers: int | None = Field(default=None, ge=1, alias="BOT_WORKERS")
    bot_time_budget: float = Field(default=1.0, gt=0, le=30, alias="BOT_TIME_BUDGET")
    bot_worker_nice: int = Field(default=10, ge=0, le=19, alias="BOT_WORKER_NICE")
    # Images: the worker processes that draw them (empty: the cores less one for the process
    # answering Discord and less BOT_WORKERS; 0: drawn in a thread of that process) and how
    # much lower their priority is (between that process and the bots' searches).
    render_workers: int | None = Field(default=None, ge=0, alias="RENDER_WORKERS")
    render_worker_nice: int = Field(default=5, ge=0, le=19, alias="RENDER_WORKER_NICE")
    # How often a board that could not be posted (Discord down, a crash) is tried again.
    board_retry_seconds: float = Field(default=15.0, gt=0, alias="BOARD_RETRY_SECONDS")
    # How long a process holds a post of the outbox it is sending, or the posting of a
    # table's boards (a killed process's successor waits that long; see bot.service.outbox).
    outbox_lease_seconds: float = Field(default=10.0, gt=0, alias="OUTBOX_LEASE_SECONDS")
    # Tests only: every turn clock runs this fraction of its turn time (a table still offers,
    # shows and stores the turn time chosen, 60 s at least). 1 in production.
    turn_time_scale: float = Field(default=1.0, gt=0, le=1, alias="TURN_TIME_SCALE")
    # The live board (#33): the web server's port (unset: no web server, no live buttons),
    # the address it binds, its public HTTPS address (the Watch live links), the application's
    # OAuth2 client (the Activity's sign-in) and the key that signs the page's sessions
    # (unset: a random one per process).
    web_port: int | None = Field(default=None, ge=1, le=65535, alias="WEB_PORT")
    web_host: str = Field(default="0.0.0.0", alias="WEB_HOST")
    web_public_url: str | None = Field(default=None, alias="WEB_PUBLIC_URL")
    discord_client_id: str | None = Field(default=None, alias="DISCORD_CLIENT_ID")
    discord_client_secret: SecretStr | None = Field(default=None, alias="DISCORD_CLIENT_SECRET")
    web_session_secret: SecretStr | None = Field(default=None, alias="WEB_SESSION_SECRET")
    # Discord's API base and gateway; overridden only by the tests' local fake Discord.
    discord_api_base: str | None = Field(default=None, alias="DISCORD_API_BASE")
    discord_gateway_url: str | None = Field(default=None, alias="DISCORD_GATEWAY_URL")


def load_settings() -> Settings:
    """Read the settings from the environment and ``.env``."""
    return Settings()


def parse_shard_ids(text: str | None) -> list[int] | None:
    """Shard ids from ``"0-3"`` (a range, inclusive) or ``"0,2,5"``; None for empty text.

    Raises ``ValueError`` with a readable message for anything else.
    """
    if text is None or not text.strip():
        return None
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shard ids must look like 0-3 or 0,1,2, not {text!r}")
        if dash:
            if int(last) < int(first):
                raise ValueError(f"shard id range {part!r} runs backwards")
            ids.extend(range(int(first), int(last) + 1))
        else:
            ids.append(int(first))
    return sorted(set(ids))
