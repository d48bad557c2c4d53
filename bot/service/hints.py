"""Hints for learners: the ``hard`` bot's choice for a seated player, on tables with hints.

A table opened with hints on (``TableRecord.hints``) lets the player who owes a decision ask
what the ``hard`` bot would play. The bot is given that seat's own view only, the same view
the player's prompts are built from, so a hint never knows more than the player. Hints are
refused on tables without hints, to spectators and out of turn. Asking changes nothing at
the table: nothing is stored, and the table's version stays. Such a table is never rated.
Owns nothing but the time a hint may search.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.model.table import NotSeated, NotYourTurn, Phase, TableError
from bot.service.games import Games
from bot.service.store import TableStore


class HintsOff(TableError):
    """The table was opened without hints."""


@dataclass(frozen=True, slots=True)
class TableHint:
    """A hint for one seat: the engine's hint and the seat's own view it was built from
    (the front end words the move from that view)."""

    seat: int
    move: str
    reasons: tuple[Any, ...]
    view: dict[str, Any]


#: A search for a hint in worker processes: (game, view, seed, time budget) -> the hint
#: (:meth:`bot.bots.pool.BotPool.hint`).
HintSearch = Callable[[str, dict[str, Any], int, float], Awaitable[Any]]


class Hints:
    """``hint``: ask the ``hard`` bot for the move of the asking player's seat."""

    def __init__(
        self,
        store: TableStore,
        games: Games,
        *,
        search: HintSearch | None = None,
        time_budget: float = 1.0,
    ) -> None:
        self._store = store
        self._games = games
        self._search = search
        #: Seconds the ``hard`` bot may think for a hint (the production bot budget).
        self.time_budget = time_budget

    async def hint(self, table_id: int, user_id: int) -> TableHint:
        """The ``hard`` bot's move for ``user_id``'s seat, with its reasons.

        Raises :class:`HintsOff`, :class:`NotSeated` (spectators, a seat given up) or
        :class:`NotYourTurn`, whose sentences the player can read.
        """
        async with self._store.reading(table_id) as live:
            record = live.record
            if not record.hints:
                raise HintsOff("error.hints_off")
            seat = record.seat_of(user_id)
            if seat is None or seat.left:
                raise NotSeated("error.hint_spectator")
            module = self._games.of(live.record)
            if (
                record.phase is not Phase.PLAYING
                or live.state is None
                or seat.index not in module.seats_to_act(live.state)
            ):
                raise NotYourTurn("error.hint_not_your_turn")
            view = dict(module.view(live.state, seat.index))
            seed = (record.seed * 1_000_003 + record.version * 7919 + seat.index) % (1 << 63)
        from engine.bots.hints import hint

        # The search takes up to a second: outside the table's lock (the view is a snapshot;
        # a hint for a turn that ended meanwhile is merely late), and in the bot pool's
        # workers when the bots play there (a thread here would share the event loop's
        # interpreter for that second).
        search = self._search
        if search is not None:
            found = await search(record.game, view, seed, self.time_budget)
        else:
            found = await asyncio.to_thread(
                hint, record.game, view, seed=seed, time_budget=self.time_budget
            )
        return TableHint(seat.index, found.move, found.reasons, view)
