"""The live board's web server (#33): the page, its socket, the Activity's sign-in.

Served by the bot process when ``WEB_PORT`` is set (``poeppel run``); the protocol is in
``docs/live.md``. A front end like the Discord one: it reads tables and moves on them only
through :class:`bot.service.TableService`, which decides what each reader may receive; a move
made here is delivered to the table's thread by the Discord front end's listener (``deliver``),
as a move made by a button is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from bot.model.effects import Effects
from bot.model.table import TableError, TableNotFound
from bot.web.assets import add_asset_routes
from bot.web.auth import (
    OAuthError,
    Session,
    SessionSigner,
    allowed_origins,
    exchange_code,
    page_locale,
)
from bot.web.hub import Client, Hub, now
from i18n import t

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.settings import Settings

log = logging.getLogger(__name__)

#: The page's files (package data: ``pip install -e .`` is the one set-up step).
STATIC_DIR = Path(__file__).parent / "static"
#: The longest message a page may send (a move's path is a few dozen short words).
MAX_MESSAGE = 16 * 1024
#: Seconds a socket has to say hello.
HELLO_SECONDS = 10.0
#: The longest path a move may have (a split 7 of four walks is 9 steps).
MAX_PATH = 24

Deliver = Callable[[Effects], Coroutine[Any, Any, None]]


@dataclass(slots=True)
class WebConfig:
    """What the web server needs of the settings."""

    public_url: str | None = None
    client_id: str | None = None
    client_secret: str | None = None
    signer: SessionSigner = field(default_factory=SessionSigner)

    @property
    def origins(self) -> frozenset[str]:
        """The origins a page may come from."""
        return allowed_origins(self.public_url, self.client_id)

    @classmethod
    def from_settings(cls, settings: Settings) -> WebConfig:
        """The web server's settings (``WEB_SESSION_SECRET`` unset: one per process)."""
        secret = settings.web_session_secret
        signer = SessionSigner(secret.get_secret_value().encode()) if secret else SessionSigner()
        client_secret = settings.discord_client_secret
        return cls(
            public_url=settings.web_public_url,
            client_id=settings.discord_client_id,
            client_secret=client_secret.get_secret_value() if client_secret else None,
            signer=signer,
        )


def table_url(public_url: str, table_id: int) -> str:
    """The live page of a table (the *Watch live* link)."""
    return f"{public_url.rstrip('/')}/live/table/{table_id}"


class LiveServer:
    """The aiohttp application of the live board over one table service."""

    def __init__(
        self, service: TableService, config: WebConfig, deliver: Deliver | None = None
    ) -> None:
        self.service = service
        self.config = config
        self.deliver = deliver
        self.hub = Hub(service)
        self._http: aiohttp.ClientSession | None = None
        self._deliveries: set[asyncio.Task[None]] = set()
        self.app = web.Application(client_max_size=MAX_MESSAGE)
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/live/", self.index)
        self.app.router.add_get(r"/live/table/{table:\d+}", self.index)
        self.app.router.add_get("/live/socket", self.socket)
        self.app.router.add_post("/live/api/token", self.token)
        self.app.router.add_get(r"/live/api/replay/{table:\d+}", self.replay)
        self.app.router.add_get("/live/api/health", self.health)
        add_asset_routes(self.app, config.client_id)
        if STATIC_DIR.is_dir():
            self.app.router.add_static("/live/static/", STATIC_DIR, follow_symlinks=False)
        self.app.on_cleanup.append(self._cleanup)

    async def _cleanup(self, _app: web.Application) -> None:
        self.hub.close()
        if self._http is not None:
            await self._http.close()
        for task in list(self._deliveries):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)

    # --- origins ----------------------------------------------------------------------------

    def _origin_ok(self, request: web.Request, *, required: bool) -> bool:
        """A browser's request must come from the public URL or the Activity; a request with
        no ``Origin`` (not a browser) only where ``required`` is False."""
        origin = request.headers.get("Origin")
        if origin is None:
            return not required
        return origin.lower() in self.config.origins

    # --- pages ------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page (the table id comes from the path or the Activity's launch)."""
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def health(self, request: web.Request) -> web.Response:
        """Whether the server answers."""
        return web.json_response({"ok": True})

    # --- sign-in ----------------------------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        """``POST /live/api/token {code, table | guild_id + channel_id}``: the Activity's
        OAuth2 code exchanged for the user's access token and a session for one table."""
        if not self._origin_ok(request, required=True):
            return _error(403, "origin")
        if not self.config.client_id or not self.config.client_secret:
            return _error(503, "sign-in is not configured")
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(400, "body")
        if not isinstance(body, dict) or not isinstance(body.get("code"), str):
            return _error(400, "code")
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        try:
            access_token, user = await exchange_code(
                self._http, body["code"], self.config.client_id, self.config.client_secret
            )
        except OAuthError as error:
            return _error(error.status, str(error))
        except (aiohttp.ClientError, TimeoutError, ValueError, KeyError):
            return _error(502, "Discord did not answer")
        try:
            table_id = await self._table_of(body)
            record = await self.service.get(table_id)
            member = record.guild_id in user.guilds
            await self.service.live.may_watch(table_id, user.user_id, member)
        except TableError:
            # The same words whether it does not exist or is not for this user.
            return _error(404, t("live.no_table", user.locale))
        session = Session(user.user_id, table_id, user.locale, member)
        return web.json_response(
            {
                "access_token": access_token,
                "session": self.config.signer.sign(session),
                "table": table_id,
                "user": str(user.user_id),
                "locale": user.locale,
            }
        )

    async def _table_of(self, body: dict[str, Any]) -> int:
        """The table the page asks for: given, or the one of the Activity's channel (a
        table's thread, or the channel with exactly one table in play)."""
        table = body.get("table")
        if isinstance(table, int) or (isinstance(table, str) and table.isdigit()):
            return int(table)
        try:
            guild_id = int(body.get("guild_id") or 0)
            channel_id = int(body.get("channel_id") or 0)
        except (TypeError, ValueError):
            raise TableNotFound() from None
        if not guild_id or not channel_id:
            raise TableNotFound()
        tables = await self.service.list_tables(guild_id, None, active=False)
        for record in sorted(tables, key=lambda r: -r.id):
            if record.thread_id == channel_id:
                return int(record.id)
        here = [r for r in tables if r.channel_id == channel_id and r.active]
        if len(here) == 1:
            return int(here[0].id)
        raise TableNotFound()

    # --- the socket -------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """``/live/socket``: hello, then states and moves (docs/live.md)."""
        if not self._origin_ok(request, required=False):
            raise web.HTTPForbidden(text="origin")
        # Uncompressed: one state goes to many sockets, and deflating it for each would cost
        # more than sending it (a state is a few kB).
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE, compress=False)
        await socket.prepare(request)
        client = await self._hello(socket)
        if client is None:
            await socket.close()
            return socket
        self.hub.add(client)
        try:
            await self.hub.send_state(client)
            async for message in socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                await self._on_message(client, message.data)
        finally:
            self.hub.remove(client)
        return socket

    async def _hello(self, socket: web.WebSocketResponse) -> Client | None:
        locale = "en"
        try:
            message = await socket.receive(timeout=HELLO_SECONDS)
            hello = json.loads(message.data) if message.type == aiohttp.WSMsgType.TEXT else None
        except (TimeoutError, json.JSONDecodeError, TypeError):
            hello = None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await _say(socket, "error", t("live.bad_hello", locale))
            return None
        locale = page_locale(hello.get("locale") if isinstance(hello.get("locale"), str) else None)
        table = hello.get("table")
        if not isinstance(table, int) or isinstance(table, bool):
            await _say(socket, "error", t("live.bad_hello", locale))
            return None
        session: Session | None = None
        if hello.get("session") is not None:
            session = self.config.signer.verify(hello.get("session"))
            if session is None or session.table_id != table:
                await _say(socket, "error", t("live.no_table", locale))
                return None
            locale = session.locale
        user_id = None if session is None else session.user_id
        try:
            await self.service.live.may_watch(
                table, user_id, session is not None and session.member
            )
        except TableError:
            await _say(socket, "error", t("live.no_table", locale))
            return None
        return Client(socket, table, user_id, locale)

    async def _on_message(self, client: Client, data: str) -> None:
        try:
            message = json.loads(data)
        except json.JSONDecodeError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "move":
            assert isinstance(message, dict)
            await self._move(client, message)
        elif kind == "replay":
            await self._replay(client)
        elif kind == "state":
            await self.hub.send_state(client)

    async def _move(self, client: Client, message: dict[str, Any]) -> None:
        locale = client.locale
        if client.user_id is None:
            await _say(client.socket, "refused", t("live.refused.spectator", locale))
            return
        if not self.hub.may_move(client, now()):
            await _say(client.socket, "refused", t("live.refused.too_fast", locale))
            return
        version, path = message.get("version"), message.get("path")
        if (
            not isinstance(version, int)
            or not isinstance(path, list)
            or not 0 < len(path) <= MAX_PATH
            or not all(isinstance(step, str) and len(step) <= 40 for step in path)
        ):
            await _say(client.socket, "refused", t("live.refused.path", locale))
            return
        try:
            effects, words = await self.service.live.move_by_path(
                client.table_id, client.user_id, path, version, locale
            )
        except TableError as error:
            key = "live.refused.spectator" if error.message.key == "error.not_playing_here" else ""
            await _say(client.socket, "refused", t(key, locale) if key else error.text(locale))
            await self.hub.send_state(client)  # the page redraws what is true now
            return
        await _say(client.socket, "played", t("live.played", locale, move=words))
        if self.deliver is not None:
            # The thread's digest and board, and the other players' open hands, as after a
            # button: the Discord front end delivers them in a task of its own.
            task = asyncio.create_task(self.deliver(effects))
            self._deliveries.add(task)
            task.add_done_callback(self._deliveries.discard)

    async def _replay(self, client: Client) -> None:
        try:
            frames = await self.service.live.replay_frames(client.table_id, client.locale)
        except TableError as error:
            await _say(client.socket, "refused", error.text(client.locale))
            return
        await client.socket.send_str(
            json.dumps({"type": "replay", "frames": frames}, ensure_ascii=False)
        )

    async def replay(self, request: web.Request) -> web.Response:
        """``GET /live/api/replay/<table>``: the frames of a finished table, for a table the
        host lets anyone watch or with the header ``Authorization: Session <token>``."""
        if not self._origin_ok(request, required=False):
            return _error(403, "origin")
        table_id = int(request.match_info["table"])
        session = None
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Session "):
            session = self.config.signer.verify(auth[8:].strip())
            if session is None or session.table_id != table_id:
                return _error(404, t("live.no_table", "en"))
        locale = session.locale if session else page_locale(request.query.get("locale"))
        try:
            await self.service.live.may_watch(
                table_id,
                None if session is None else session.user_id,
                session is not None and session.member,
            )
            frames = await self.service.live.replay_frames(table_id, locale)
        except TableError:
            return _error(404, t("live.no_table", locale))
        return web.json_response({"type": "replay", "frames": frames})


def _error(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


async def _say(socket: web.WebSocketResponse, kind: str, text: str) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(json.dumps({"type": kind, "text": text}, ensure_ascii=False))


@contextlib.asynccontextmanager
async def serve_web(
    service: TableService, settings: Settings, deliver: Deliver | None = None
) -> AsyncIterator[LiveServer | None]:
    """Serve the live board on ``WEB_PORT`` while the block runs (nothing when unset)."""
    if settings.web_port is None:
        yield None
        return
    server = LiveServer(service, WebConfig.from_settings(settings), deliver)
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_host, settings.web_port)
    await site.start()
    log.info("the live board listens on %s:%s", settings.web_host, settings.web_port)
    try:
        yield server
    finally:
        await runner.cleanup()
