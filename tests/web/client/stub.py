"""A small live server speaking docs/live.md, for the browser tests of the page alone.

It serves the real static files (bot/web/static), the tile art and figure spots from the
renderer, and a socket that plays tables of the real engines: enough to test what the page
does with states, options and answers without the bot. The end-to-end tests against the bot's
own server live beside it; this stub keeps the page's tests independent of the table service.
Its words are test data (plain English), not the catalogues'.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

import engine.carcassonne as carcassonne
import engine.dog as dog
import engine.tock as tock
from renderer.carcassonne.tiledata import all_tile_ids
from renderer.carcassonne.tiles import _segment_spots, tile_image
from renderer.style import CARCASSONNE_COLOURS, SEAT_COLOURS, seat_letter

STATIC = Path(__file__).resolve().parents[3] / "bot" / "web" / "static"
GAMES: dict[str, Any] = {"tock": tock, "dog": dog, "carcassonne": carcassonne}
SUITS = ("♣", "♦", "♥", "♠")


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def race_path(move: str) -> list[str]:
    """A race move's click path as docs/live.md writes it."""
    if move == "F":
        return ["act:fold"]
    if move.startswith("G:"):
        return ["give:" + move[2:]]
    card, _, action = move.rpartition(":")
    token = "X" if card.startswith("X=") else card
    path = ["card:" + token]
    if card.startswith("X="):
        path.append("as:" + card[2:])
    if action == "D":
        return [*path, "act:discard"]
    if action == "N":
        return [*path, "act:nothing"]
    if action.startswith("E"):
        return path  # completed with the kennel by the caller
    if "<>" in action:
        a, b = action.split("<>")
        return [*path, "pawn:" + a, "pawn:" + b]
    for walk in action.split(","):
        a, b = walk.split("-")
        path += ["pawn:" + a, "field:" + b]
    return path


@dataclass
class StubTable:
    """One table of the stub: a real engine state and the public events of every move."""

    number: int
    game: str
    players: int
    seed: int
    users: dict[str, int] = field(default_factory=dict)  # session -> seat
    version: int = 1
    moves: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    position: dict[str, Any] | None = None
    #: Declared over by the test (a whole game takes long): the page then shows the replay.
    over: bool = False

    def __post_init__(self) -> None:
        self.module = GAMES[self.game]
        if self.position is not None:
            self.state = self.module.from_position(self.position)
        else:
            self.state = self.module.new_game(self.players, {}, self.seed)
        self.frames.append(self.message(None))

    # -- what a reader receives ------------------------------------------------------------

    def options(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal moves as click paths (docs/live.md)."""
        if seat not in self.module.seats_to_act(self.state):
            return []
        result = []
        view = self.module.view(self.state, seat)
        for move in self.module.legal_moves(self.state, seat):
            text = str(move)
            if self.game == "carcassonne":
                if "@" in text:
                    cell, rot = text.split("@")
                    path = ["cell:" + cell, "turn:" + rot]
                elif text == "none":
                    path = ["figure:none"]
                else:
                    kind, _, segment = text.partition(":")
                    path = ["figure:" + segment]
                    if kind != "follower":
                        path.append("kind:" + kind)
            else:
                path = race_path(text)
                if text.split(":")[-1].startswith("E"):
                    colour = text.split(":")[-1][1:] or str(view.get("turn", seat))
                    path.append("pawn:k" + colour)
            result.append({"path": path, "text": text})
        return result

    def message(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for a seat (or a spectator: ``None``)."""
        view = self.module.view(self.state, None)
        palette = CARCASSONNE_COLOURS if self.game == "carcassonne" else SEAT_COLOURS
        seats = [
            {
                "seat": s,
                "name": f"Player {s + 1}",
                "colour": _hex(palette[s]),
                "initial": seat_letter(s, self.game),
                "team": None,
            }
            for s in view["seats"]
        ]
        since = self._since(seat)
        to_act = sorted(self.module.seats_to_act(self.state))
        finished = self.over or self.module.outcome(self.state) is not None
        status = (
            "Game over" if finished else "To play: " + ", ".join(f"Player {s + 1}" for s in to_act)
        )
        you = None
        if seat is not None:
            own = self.module.view(self.state, seat)
            hand = [
                {"token": token, "text": f"{token} {SUITS[i % 4]}"}
                for i, token in enumerate(own.get("hand") or [])
            ]
            targets = {
                "act:discard": "Discard",
                "act:nothing": "Change nothing",
                "act:fold": "Fold",
                "figure:none": "No figure",
            }
            targets.update({f"turn:{r}": f"Turned {r}°" for r in (0, 90, 180, 270)})
            you = {
                "seat": seat,
                "hand": hand,
                "pick": own.get("my_pick"),
                "options": self.options(seat),
                "prompt": "Your turn" if seat in to_act else "Waiting",
                "targets": targets,
            }
        return {
            "type": "state",
            "table": self.number,
            "game": self.game,
            "version": self.version,
            "locale": "en",
            "phase": "finished" if finished else "playing",
            "public": view,
            "seats": seats,
            "since": since,
            "status": status,
            "labels": {
                "title": f"{self.game.title()} · table {self.number}",
                "since": "Since your last turn",
                "replay": "Replay",
                "score": "Score",
                "tiles_left": "Tiles left",
            },
            "to_act": to_act,
            "you": you,
            "finished": finished,
        }

    def _since(self, seat: int | None) -> list[dict[str, Any]]:
        start = 0
        if seat is not None:
            for index, (mover, _events) in enumerate(self.moves):
                if mover == seat:
                    start = index + 1
        else:
            start = max(0, len(self.moves) - 4)
        return [
            {
                "number": n,
                "seat": mover,
                "text": f"Move {n} by Player {mover + 1}",
                "events": events,
            }
            for n, (mover, events) in enumerate(self.moves[start:], start + 1)
        ]

    def state_phase(self) -> str:
        """The engine view's phase (``place`` / ``figure`` in Carcassonne)."""
        return str(self.module.view(self.state, None).get("phase"))

    def play(self, seat: int, path: list[str]) -> str | None:
        """Apply the option with ``path``; the move's text, or ``None`` when refused."""
        for option in self.options(seat):
            if option["path"] == path:
                self.apply(option["text"], seat)
                return str(option["text"])
        return None

    def apply(self, move: str, seat: int | None = None) -> None:
        """Apply ``move`` (as a move made elsewhere, e.g. through Discord) and log its events."""
        if seat is None:
            seat = min(self.module.seats_to_act(self.state))
        self.state = self.module.apply(self.state, move, seat)
        events = [e for e in self.module.view(self.state, None)["events"] if e.get("public", True)]
        self.moves.append((seat, events))
        self.version += 1
        self.frames.append(self.message(None))


class Stub:
    """The stub's aiohttp app; run it in a thread with :func:`running`."""

    def __init__(self) -> None:
        self.tables: dict[int, StubTable] = {}
        self.sockets: list[tuple[web.WebSocketResponse, int, int | None]] = []
        self.received: list[dict[str, Any]] = []  # every message a socket sent
        self.client_id = "123456789012345678"
        self.codes: dict[str, tuple[str, int]] = {}  # OAuth code -> (session, table)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.app = web.Application()
        self.app.router.add_get("/live/table/{table}", self.page)
        self.app.router.add_get("/", self.page)
        self.app.router.add_static("/live/static/", STATIC)
        self.app.router.add_get("/live/tiles/{tile}.png", self.tile)
        self.app.router.add_get("/live/tiles.json", self.spots)
        self.app.router.add_get("/live/api/config", self.config)
        self.app.router.add_post("/live/api/token", self.token)
        self.app.router.add_get("/live/socket", self.socket)
        self.extra_pages: dict[str, str] = {}
        self.app.router.add_get("/test/{name}", self.test_page)

    def add_table(
        self, game: str, players: int, seed: int, position: dict[str, Any] | None = None
    ) -> StubTable:
        table = StubTable(len(self.tables) + 1, game, players, seed, position=position)
        self.tables[table.number] = table
        return table

    async def page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def test_page(self, request: web.Request) -> web.Response:
        return web.Response(
            text=self.extra_pages[request.match_info["name"]], content_type="text/html"
        )

    async def tile(self, request: web.Request) -> web.Response:
        image = tile_image(request.match_info["tile"], 0, 192)
        out = io.BytesIO()
        image.save(out, "PNG")
        return web.Response(body=out.getvalue(), content_type="image/png")

    async def spots(self, request: web.Request) -> web.Response:
        data = {
            tile: {k: list(v) for k, v in _segment_spots(tile).items()} for tile in all_tile_ids()
        }
        return web.json_response(data)

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": self.client_id})

    async def token(self, request: web.Request) -> web.Response:
        body = await request.json()
        session, table = self.codes.get(str(body.get("code")), (None, None))
        if session is None:
            return web.json_response({"error": "no"}, status=403)
        return web.json_response(
            {"access_token": "user-token-" + session, "session": session, "table": table}
        )

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        number: int | None = None
        seat: int | None = None
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            self.received.append(data)
            if data.get("type") == "hello":
                number = int(data["table"])
                table = self.tables[number]
                seat = table.users.get(data.get("session") or "")
                self.sockets.append((ws, number, seat))
                await ws.send_json(table.message(seat))
            elif data.get("type") == "move" and number is not None and seat is not None:
                table = self.tables[number]
                if data.get("version") != table.version:
                    await ws.send_json({"type": "refused", "text": "Too late"})
                    continue
                text = table.play(seat, list(data.get("path") or []))
                if text is None:
                    await ws.send_json({"type": "refused", "text": "Not a legal move"})
                else:
                    await ws.send_json({"type": "played", "text": "Played " + text})
                    await self.broadcast(number)
            elif data.get("type") == "replay" and number is not None:
                await ws.send_json({"type": "replay", "frames": self.tables[number].frames})
        return ws

    def finish(self, number: int) -> None:
        """Declare table ``number`` over and tell its sockets."""

        async def run() -> None:
            table = self.tables[number]
            table.over = True
            table.version += 1
            await self.broadcast(number)

        self.call(run)

    async def broadcast(self, number: int) -> None:
        table = self.tables[number]
        for ws, n, seat in list(self.sockets):
            if n == number and not ws.closed:
                await ws.send_json(table.message(seat))

    def call(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` on the stub's loop (from a test's thread) and wait."""
        assert self.loop is not None

        async def run() -> Any:
            result = fn(*args)
            if asyncio.iscoroutine(result):
                result = await result
            return result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def move_elsewhere(self, number: int, move: str) -> None:
        """A move made outside the page (as through Discord): apply and push to the sockets."""

        async def run() -> None:
            self.tables[number].apply(move)
            await self.broadcast(number)

        self.call(run)


@contextmanager
def running(stub: Stub) -> Iterator[str]:
    """Serve ``stub`` on a free port of 127.0.0.1 in a thread; yields its base URL."""
    ready = threading.Event()
    holder: dict[str, Any] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        stub.loop = loop
        runner = web.AppRunner(stub.app)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        holder["port"] = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        holder["runner"] = runner
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield f"http://127.0.0.1:{holder['port']}"
    finally:
        assert stub.loop is not None

        async def close_sockets() -> None:
            for ws, _number, _seat in stub.sockets:
                await ws.close()

        stub.call(close_sockets)
        stub.loop.call_soon_threadsafe(stub.loop.stop)
        thread.join(10)


def play_until(table: StubTable, wanted: Any, limit: int = 400) -> bool:
    """Play the first legal moves (bots) until ``wanted(table)`` holds; whether it did."""
    for _ in itertools.repeat(None, limit):
        if wanted(table):
            return True
        if table.module.outcome(table.state) is not None:
            return False
        seat = min(table.module.seats_to_act(table.state))
        moves = table.module.legal_moves(table.state, seat)
        table.apply(str(moves[len(moves) // 2]), seat)
    return wanted(table)
