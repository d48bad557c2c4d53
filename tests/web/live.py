"""Helpers of the live board's tests: a live server over a table service, and sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from bot.model.effects import Effects
from bot.service import TableService
from bot.web.auth import Session, SessionSigner
from bot.web.server import LiveServer, WebConfig

PUBLIC = "https://poeppel.example"
CLIENT_ID = "4242"
SIGNER = SessionSigner(b"test secret")


def config(**changes: Any) -> WebConfig:
    """The tests' web settings (a fixed signing key)."""
    values: dict[str, Any] = {
        "public_url": PUBLIC,
        "client_id": CLIENT_ID,
        "client_secret": "client secret",
        "signer": SIGNER,
    }
    values.update(changes)
    return WebConfig(**values)


def session(user: int, table: int, *, member: bool = True, locale: str = "en") -> str:
    """A signed session of ``user`` for ``table``."""
    return SIGNER.sign(Session(user, table, locale, member))


class Page:
    """One socket to the live server, as the page would hold it."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        #: The newest state received.
        self.latest: dict[str, Any] | None = None

    async def hello(self, table: int, token: str | None = None, locale: str = "en") -> None:
        """Say hello."""
        hello = {"type": "hello", "table": table, "session": token, "locale": locale}
        await self.socket.send_str(json.dumps(hello))

    async def next(self, kind: str | None = None, wait: float = 5.0) -> dict[str, Any]:
        """The next message (of ``kind``)."""
        while True:
            message = await self.socket.receive(timeout=wait)
            if message.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"socket closed: {message.type}")
            self.raw.append(message.data)
            data: dict[str, Any] = json.loads(message.data)
            self.received.append(data)
            if data["type"] == "state":
                self.latest = data
            if kind is None or data["type"] == kind:
                return data

    async def state_at(self, version: int, wait: float = 5.0) -> dict[str, Any]:
        """The newest state if it is at ``version`` or later, else the next one that is."""
        if self.latest is not None and self.latest["version"] >= version:
            return self.latest
        while True:
            data = await self.next("state", wait)
            if data["version"] >= version:
                return data

    async def move(self, version: int, path: list[str]) -> None:
        """Send a move."""
        await self.socket.send_str(json.dumps({"type": "move", "version": version, "path": path}))


class Live:
    """A live server on a local port over ``service``."""

    def __init__(self, server: LiveServer, test_server: TestServer) -> None:
        self.server = server
        self.test_server = test_server
        self.http = aiohttp.ClientSession()
        self.delivered: list[Effects] = []

    def url(self, path: str) -> str:
        """The address of ``path`` on the server."""
        return str(self.test_server.make_url(path))

    @contextlib.asynccontextmanager
    async def page(self, origin: str | None = PUBLIC) -> AsyncIterator[Page]:
        """A socket, opened with ``origin``."""
        headers = {"Origin": origin} if origin else {}
        async with self.http.ws_connect(self.url("/live/socket"), headers=headers) as socket:
            yield Page(socket)


@contextlib.asynccontextmanager
async def live_server(
    service: TableService, web_config: WebConfig | None = None, *, deliver: bool = True
) -> AsyncIterator[Live]:
    """A live server over ``service`` (moves made on it delivered to ``live.delivered``)."""
    holder: list[Live] = []

    async def record(effects: Effects) -> None:
        holder[0].delivered.append(effects)

    server = LiveServer(service, web_config or config(), record if deliver else None)
    test_server = TestServer(server.app)
    await test_server.start_server()
    live = Live(server, test_server)
    holder.append(live)
    try:
        yield live
    finally:
        await live.http.close()
        await test_server.close()
        await asyncio.sleep(0)
