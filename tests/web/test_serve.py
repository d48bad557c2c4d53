"""The web server in the bot process: off unless WEB_PORT is set; its memory per table goes
with the table."""

from __future__ import annotations

import asyncio
import socket

import aiohttp

from bot.service import TableService
from bot.settings import Settings
from bot.web.server import serve_web
from tests.web.live import live_server


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
