"""A spectator's live-board socket, read for the twin-run leak test
(tests/bot/discord/test_secrecy_paths.py): every state it receives, as the reader saw it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.service import TableService
from tests.web.live import live_server, session

#: What a spectator's state must never hold: the engine's secrets and a seat's private part.
SECRET_KEYS = frozenset({"hand", "hands", "exchange", "pile", "seed"})


@dataclass
class SocketReader:
    """The states a spectator's socket received: (version, text), in order."""

    user_id: int
    states: list[tuple[int, str]] = field(default_factory=list)

    def words(self, state: dict[str, Any]) -> list[str]:
        """Every sentence of a state a person reads."""
        texts = [state.get("status") or ""]
        texts += [line["text"] for line in state.get("since") or []]
        texts += [str(v) for v in (state.get("labels") or {}).values()]
        texts += [seat["name"] for seat in state.get("seats") or []]
        return [x for x in texts if x]

    def until(self, version: int) -> dict[int, str]:
        """The states of versions up to ``version`` (one text per version)."""
        return {v: text for v, text in self.states if v <= version}


def check_spectator_state(state: dict[str, Any]) -> None:
    """A spectator's state carries no hand, no pick, no draw order, nothing private."""
    assert state["you"] is None, state["you"]
    public = state.get("public")
    if public is None:
        return
    assert public.get("viewer") is None
    assert not SECRET_KEYS & set(public), SECRET_KEYS & set(public)
    assert public.get("my_pick") is None
    assert public.get("received") is None
    assert not isinstance(public.get("draw"), list)
    assert isinstance(public.get("draw", public.get("tiles_left")), int)
    for event in public.get("events") or []:
        assert event.get("public", True), event
    for line in state.get("since") or []:
        for event in line["events"]:
            assert event.get("public", True), event
            assert event.get("kind") not in ("pick_made", "exchange_received"), event


@contextlib.asynccontextmanager
async def spectator_socket(
    service: TableService,
    table_id: int,
    user_id: int,
    seen: Callable[[dict[str, Any], SocketReader], None],
) -> AsyncIterator[SocketReader]:
    """A live server and a signed-in spectator's socket on ``table_id``; ``seen`` is told of
    every state as it arrives (the leak test records it at that moment)."""
    reader = SocketReader(user_id)
    async with live_server(service, deliver=False) as live, live.page() as page:
        await page.hello(table_id, session(user_id, table_id, member=True))

        async def read() -> None:
            while True:
                message = await page.socket.receive()
                if message.type != aiohttp.WSMsgType.TEXT:
                    return
                data = json.loads(message.data)
                if data["type"] == "state":
                    check_spectator_state(data)
                    reader.states.append((int(data["version"]), message.data))
                    seen(data, reader)

        task = asyncio.create_task(read())
        try:
            yield reader
        finally:
            await asyncio.sleep(0.1)  # the last states on their way
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
