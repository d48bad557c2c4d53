"""The bot token never appears in the logs of a run."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from bot.discord_ui.logs import REDACTED, RedactSecrets
from tests.fakediscord.server import FakeDiscord


def test_redaction_filter_hides_secret_in_message_and_traceback() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "token is %s", ("s3cr3t",), None)
    try:
        raise RuntimeError("failed with s3cr3t")
    except RuntimeError:
        record.exc_info = sys.exc_info()
    RedactSecrets(["s3cr3t"]).filter(record)
    text = logging.Formatter().format(record)
    assert "s3cr3t" not in text
    assert REDACTED in text


async def test_poeppel_run_never_logs_the_token(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern")
        fake.add_channel(guild, "games")
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
            "LOG_LEVEL": "DEBUG",
            "DEV_GUILD_ID": str(guild.id),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "run",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await fake.wait_for(
                lambda: fake.find_command("tock", guild.id), timeout=30, what="(bot synced)"
            )
        finally:
            process.send_signal(signal.SIGINT)
            stdout, stderr = await asyncio.wait_for(process.communicate(), 20)
    logs = stdout.decode() + stderr.decode()
    assert "DEBUG" in logs, "the run should have logged at DEBUG level"
    assert fake.token not in logs
