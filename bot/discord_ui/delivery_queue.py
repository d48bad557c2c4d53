"""Each table's deliveries in order, and those that queue up told together.

A delivery (the boards of a move, then the open hands) waits for Discord: for the board's
image and for the publisher's pace under Discord's global rate limit
(:mod:`bot.discord_ui.pace`). When the people at many tables play faster than the threads can
be posted to (40 busy tables, each person playing from a hand that follows the game), a queue
of one delivery per move would make every table's thread fall further and further behind the
game. Here a table has one delivery under way at a time; the ones that arrive meanwhile wait,
and are merged into one when their turn comes: the thread catches up in one post (the turn
digest tells every move since, :mod:`bot.discord_ui.publisher`) and each open hand is edited
once, to the newest state.

The queue is the table's order too: a delivery never overtakes an earlier one of its table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.discord_ui.click_route import ClickRoute, newest
from bot.model.effects import Effects

log = logging.getLogger(__name__)

#: Sends one (merged) delivery: the effects, whether the open hands are refreshed after
#: it, the user whose own answer already shows their hand (not refreshed), and the route of
#: the newest click among them (its boards may go out there, bot.discord_ui.click_route).
Send = Callable[[Effects, bool, "int | None", "ClickRoute | None"], Awaitable[None]]


@dataclass(slots=True)
class _Waiting:
    effects: Effects
    skip: int | None
    refresh: bool
    then: Callable[[], Awaitable[None]] | None
    done: asyncio.Future[None] | None
    via: ClickRoute | None


class DeliveryQueue:
    """Per table: the delivery under way and the ones waiting for it (see the module)."""

    def __init__(self, send: Send) -> None:
        self._send = send
        #: table id -> the deliveries waiting for the one under way (gone once drained, so
        #: this holds only tables with a delivery under way).
        self._waiting: dict[int, list[_Waiting]] = {}
        self._drainers: dict[int, asyncio.Task[None]] = {}
        #: How many deliveries were told together with an earlier one (for benches).
        self.merged = 0

    def put(
        self,
        effects: Effects,
        *,
        skip: int | None = None,
        refresh: bool = True,
        then: Callable[[], Awaitable[None]] | None = None,
        wait: bool = False,
        via: ClickRoute | None = None,
    ) -> asyncio.Future[None] | None:
        """Queue ``effects`` for delivery (then ``then``); with ``wait``, a future that is
        done once they were delivered. ``via``: the route of the click that made them."""
        table_id = effects.table.id
        done = asyncio.get_running_loop().create_future() if wait else None
        waiting = _Waiting(effects, skip, refresh, then, done, via)
        self._waiting.setdefault(table_id, []).append(waiting)
        if table_id not in self._drainers:
            self._drainers[table_id] = asyncio.create_task(self._drain(table_id))
        return done

    def under_way(self, table_id: int) -> bool:
        """Whether a delivery of ``table_id`` is under way (its newest board is coming)."""
        return table_id in self._drainers

    def tasks(self) -> list[asyncio.Task[None]]:
        """The deliveries under way (one task per table)."""
        return list(self._drainers.values())

    def release(self, table_id: int) -> bool:
        """Nothing to drop: a table is kept only while a delivery of it is under way."""
        return table_id not in self._drainers

    async def _drain(self, table_id: int) -> None:
        batch: list[_Waiting] = []
        try:
            while batch := self._waiting.pop(table_id, []):
                effects = Effects(batch[0].effects.table)
                for entry in batch:
                    effects.extend(entry.effects)
                self.merged += len(batch) - 1
                skips = {entry.skip for entry in batch}
                skip = skips.pop() if len(skips) == 1 else None
                try:
                    via = newest([entry.via for entry in batch])
                    await self._send(effects, any(e.refresh for e in batch), skip, via)
                except Exception:
                    log.exception("delivering effects of table %s failed", table_id)
                for entry in batch:
                    if entry.then is not None:
                        try:
                            await entry.then()
                        except Exception:
                            log.exception("after delivering at table %s", table_id)
                    if entry.done is not None and not entry.done.done():
                        entry.done.set_result(None)
                batch = []
        finally:
            self._drainers.pop(table_id, None)
            # Cancelled (the bot stops): whoever waits for these deliveries stops waiting.
            for entry in [*batch, *self._waiting.pop(table_id, [])]:
                if entry.done is not None and not entry.done.done():
                    entry.done.cancel()
