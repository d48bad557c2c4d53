"""The web server in the bot process: off unless WEB_PORT is set; its memory per table goes
with the table."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.service import TableService
from bot.settings import Settings
from bot.web.server import serve_web
from tests.web.live import live_server

#: The root of this checkout (the subprocess must run this code).
CHECKOUT = str(Path(__file__).resolve().parents[2])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_no_web_server_without_a_port(service: TableService) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.web_port is None
    async with serve_web(service, settings) as server:
        assert server is None


async def test_the_web_server_listens_on_its_port(service: TableService) -> None:
    port = free_port()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, WEB_PORT=port, WEB_HOST="127.0.0.1", WEB_SESSION_SECRET="s3cret"
    )
    async with serve_web(service, settings) as server, aiohttp.ClientSession() as http:
        assert server is not None
        assert server.config.signer.secret == b"s3cret"
        async with http.get(f"http://127.0.0.1:{port}/live/api/health") as answer:
            assert await answer.json() == {"ok": True}


async def test_a_released_table_leaves_nothing_in_the_hub(service: TableService) -> None:
    opened = await service.create(7, 8, "tock", 100, "Ann", players=2, seed=3, live_watch=True)
    table = opened.table.id
    async with live_server(service) as live:
        async with live.page() as page:
            await page.hello(table)
            await page.next("state")
            assert live.server.hub.watching(table) == 1
        for _ in range(200):  # the server handles the socket's close
            if not live.server.hub.watching(table):
                break
            await asyncio.sleep(0.01)
        assert live.server.hub.watching(table) == 0
        service.memory.release(table)
        assert table not in live.server.hub._states


@pytest.mark.slow
async def test_poeppel_run_serves_the_live_board(tmp_path: Path) -> None:
    """The real ``poeppel run`` with WEB_PORT, against the fake Discord: the page answers."""
    from tests.fakediscord.server import FakeDiscord

    port = free_port()
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.ws_url,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
            "WEB_PORT": str(port),
            "WEB_HOST": "127.0.0.1",
            "WEB_PUBLIC_URL": "https://poeppel.example",
            "RENDER_WORKERS": "0",
            "BOT_WORKERS": "1",
            "PYTHONPATH": CHECKOUT,
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=tmp_path, env=env
        )
        try:
            answer = None
            for _ in range(200):
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"http://127.0.0.1:{port}/live/api/health") as reply:
                        answer = await reply.json()
                        break
                await asyncio.sleep(0.1)
            assert answer == {"ok": True}
        finally:
            process.terminate()
            await asyncio.wait_for(process.wait(), 30)
