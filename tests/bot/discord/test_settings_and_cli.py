"""Settings, shard ids and the command line around the bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import Settings, parse_shard_ids


def test_shard_ids_as_range_or_list() -> None:
    assert parse_shard_ids("0-3") == [0, 1, 2, 3]
    assert parse_shard_ids("4,1,1") == [1, 4]
    assert parse_shard_ids("") is None
    with pytest.raises(ValueError, match="shard"):
        parse_shard_ids("3-1")
    with pytest.raises(ValueError, match="shard"):
        parse_shard_ids("a-b")


def test_settings_read_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv("DEV_GUILD_ID", "42")
    monkeypatch.setenv("SHARD_COUNT", "4")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "secret-token"
    assert "secret-token" not in repr(settings)
    assert settings.dev_guild_id == 42
    assert settings.shard_count == 4
    assert settings.database_url.startswith("sqlite:///")


def test_run_without_token_explains_and_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


#: The root of this checkout (the subprocess must run this code).
CHECKOUT = str(Path(__file__).resolve().parents[3])


async def test_sync_commands_registers_globally(tmp_path) -> None:
    import asyncio
    import os
    import sys

    from tests.fakediscord.server import FakeDiscord

    async with FakeDiscord() as fake:
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'sync.sqlite3'}",
            # This checkout's code, not whichever one the virtualenv was installed from.
            "PYTHONPATH": CHECKOUT,
        }
        env.pop("DEV_GUILD_ID", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "sync-commands",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, _stderr = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0
        names = {c["name"] for c in fake.global_commands}
    expected = {"tock", "dog", "carcassonne", "table", "rules", "move"}
    expected |= {"stats", "leaderboard", "history", "tournament", "season"}
    assert names == expected
    assert f"Synced {len(expected)} commands".encode() in stdout


def test_bad_shard_ids_are_refused_before_connecting(
    monkeypatch: pytest.MonkeyPatch, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert main(["run", "--shard-count", "2", "--shard-ids", "1-0"]) == 2
    assert "backwards" in caplog.text
    assert main(["run", "--shard-ids", "0-1"]) == 2
    assert "--shard-count" in caplog.text


def test_play_takes_game_options_after_flags() -> None:
    from bot.cli import parse_args

    args = parse_args(["play", "dog", "--players", "4", "ruleset=braendi", "--bots", "3"])
    assert args.options == ["ruleset=braendi"]
    assert args.players == 4
    assert args.bots == 3


def test_unknown_words_on_the_command_line_are_refused() -> None:
    from bot.cli import parse_args

    with pytest.raises(SystemExit):
        parse_args(["run", "ruleset=braendi"])
    with pytest.raises(SystemExit):
        parse_args(["play", "dog", "--no-such-flag"])
