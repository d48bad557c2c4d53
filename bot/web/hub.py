"""The live board's sockets: who watches which table, and each new state sent to them.

A change of a table (told by the table service after each commit, here or in another
process) marks the table; one task per table then asks the service for each kind of reader
once — spectators per language, each signed-in user — serialises that state once and sends
the same text to every socket of that kind. States are kept per table only for its newest
version, in a :class:`~bot.model.table_memory.PerTable` released with the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.model.table_memory import PerTable

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

#: Moves a person may send per :data:`MOVE_WINDOW` seconds at one table, over all their
#: sockets (a person clicks a few times a second at most; more is a script).
MOVES_PER_WINDOW = 4
MOVE_WINDOW = 2.0

#: Who a state is for: ``("spectator", locale)`` or ``("user", user_id, locale)``.
ReaderKey = tuple[Any, ...]


@dataclass(eq=False, slots=True)
class Client:
    """One open socket: the table it watches and who reads it."""

    socket: web.WebSocketResponse
    table_id: int
    user_id: int | None
    locale: str
    #: The version of the newest state sent (never an older one after it).
    sent: int = -1

    @property
    def reader(self) -> ReaderKey:
        """The kind of reader: every socket of one kind gets the same text."""
        if self.user_id is None:
            return ("spectator", self.locale)
        return ("user", self.user_id, self.locale)


StateMaker = Callable[[int, int | None, str], Awaitable[dict[str, Any]]]


class Hub:
    """The sockets of every table this process serves, and their updates."""

    def __init__(self, service: TableService, make_state: StateMaker | None = None) -> None:
        self._service = service
        self._make_state = make_state or service.live.reader_state
        #: table id -> its open sockets (an entry goes with the table's last socket).
        self._clients: dict[int, set[Client]] = {}
        #: table id -> (version, {reader: serialised state}); only the newest version.
        self._states: PerTable[tuple[int, dict[ReaderKey, str]]] = PerTable()
        service.memory.register(self._states)
        #: table id -> the task sending its new states; a change meanwhile runs it again.
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stop = service.live.listen(self.changed)
        #: table id -> user id -> when their latest moves came (the rate limit).
        self._moves: PerTable[dict[int, deque[float]]] = PerTable()
        service.memory.register(self._moves)
        #: Serialisations made (the bench checks one per reader kind and version).
        self.serialised = 0

    def close(self) -> None:
        """Stop listening to the service and end the update tasks."""
        self._stop()
        for task in self._running.values():
            task.cancel()

    # --- sockets ----------------------------------------------------------------------------

    def add(self, client: Client) -> None:
        """Follow ``client``'s table for it."""
        self._clients.setdefault(client.table_id, set()).add(client)

    def remove(self, client: Client) -> None:
        """The socket closed."""
        clients = self._clients.get(client.table_id)
        if clients is None:
            return
        clients.discard(client)
        if not clients:
            del self._clients[client.table_id]

    def watching(self, table_id: int) -> int:
        """How many sockets watch ``table_id``."""
        return len(self._clients.get(table_id, ()))

    def may_move(self, client: Client, now: float) -> bool:
        """Count one move of the client's person; False when they send moves faster than
        a person clicks (on one socket or many)."""
        assert client.user_id is not None
        users = self._moves.setdefault(client.table_id, {})
        moves = users.setdefault(client.user_id, deque())
        while moves and now - moves[0] >= MOVE_WINDOW:
            moves.popleft()
        if len(moves) >= MOVES_PER_WINDOW:
            return False
        moves.append(now)
        return True

    # --- states -----------------------------------------------------------------------------

    async def state_text(self, table_id: int, user_id: int | None, locale: str) -> str:
        """The serialised state of the table for one kind of reader (made once per version
        and kind)."""
        reader: ReaderKey = ("spectator", locale) if user_id is None else ("user", user_id, locale)
        cached = self._states.get(table_id)
        # The table's version is a cheap read; the state is made only when it moved on.
        if (
            cached is not None
            and reader in cached[1]
            and (await self._service.get(table_id)).version == cached[0]
        ):
            return cached[1][reader]
        state = await self._make_state(table_id, user_id, locale)
        version = int(state["version"])
        cached = self._states.get(table_id)
        if cached is not None and cached[0] == version and reader in cached[1]:
            return cached[1][reader]
        text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        self.serialised += 1
        if cached is None or cached[0] < version:
            self._states[table_id] = (version, {reader: text})
        elif cached[0] == version:
            cached[1][reader] = text
        return text

    async def send_state(self, client: Client) -> None:
        """Send ``client`` the table's state for its reader (again, if asked)."""
        text = await self.state_text(client.table_id, client.user_id, client.locale)
        await self._send(client, text.encode(), _version_of(text), again=True)

    @staticmethod
    async def _send(client: Client, data: bytes, version: int, *, again: bool = False) -> None:
        """Send one serialised state (``data``, UTF-8: encoded once for every socket)."""
        # Never an older state after a newer one; the same one once (a commit of this
        # process is told by the store and again by the database's change feed).
        if version < client.sent or (version == client.sent and not again):
            return
        if client.socket.closed:
            return
        client.sent = version
        with contextlib.suppress(ConnectionError, RuntimeError):
            await client.socket.send_frame(data, WSMsgType.TEXT)

    # --- changes ----------------------------------------------------------------------------

    def changed(self, table_id: int, version: int) -> None:
        """The service's listener: ``table_id`` is at ``version`` (no work in the caller's
        task: it holds the table's lock). Table 0: any table may have changed (the database's
        change feed was lost for a while): every watched table is sent again."""
        if table_id == 0:
            for watched in list(self._clients):
                self.changed(watched, version)
            return
        if table_id not in self._clients:
            return
        if table_id in self._running:
            self._again.add(table_id)
            return
        self._running[table_id] = asyncio.get_running_loop().create_task(self._update(table_id))

    async def _update(self, table_id: int) -> None:
        try:
            while True:
                self._again.discard(table_id)
                await self._send_all(table_id)
                if table_id not in self._again:
                    return
        except Exception:
            log.exception("sending the live states of table %s failed", table_id)
        finally:
            self._running.pop(table_id, None)

    async def _send_all(self, table_id: int) -> None:
        """Every socket of the table gets the newest state of its kind of reader."""
        kinds: dict[ReaderKey, list[Client]] = {}
        for client in tuple(self._clients.get(table_id, ())):
            kinds.setdefault(client.reader, []).append(client)
        for clients in kinds.values():
            first = clients[0]
            try:
                text = await self.state_text(table_id, first.user_id, first.locale)
            except Exception as error:  # the table is gone (or not for this reader any more)
                log.info("no live state of table %s: %s", table_id, error)
                continue
            # One after the other: a send only writes to the socket's buffer (it waits only
            # for a reader so slow that its buffer filled), and a task per socket would cost
            # more than the sends.
            data, version = text.encode(), _version_of(text)
            for client in clients:
                await self._send(client, data, version)


def _version_of(text: str) -> int:
    """The version of a serialised state (read without parsing the whole text)."""
    marker = text.find('"version":')
    if marker < 0:
        return -1
    end = text.find(",", marker)
    try:
        return int(text[marker + 10 : end])
    except ValueError:
        return -1


def now() -> float:
    """The clock of the rate limit."""
    return time.monotonic()
