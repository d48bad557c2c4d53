"""Play: a person's move, an exchange pick (or its change), and what a seat may see now.

A button carries the version it was drawn at; it is stale once the same seat acted since
(or the game started since), so other seats' picks in a simultaneous exchange leave it
valid. A seat that already picked may change its pick while the exchange is open
(C-10.5) when the engine lists ``G:`` moves for it (N-7.2). Owns nothing: the tables are
the store's, the bots' turns after a move are :class:`~bot.service.bot_turns.BotTurns`'.
"""

from __future__ import annotations

from typing import Any

from bot.model.effects import Effects, PrivateInfo
from bot.model.table import (
    IllegalMoveError,
    LogKind,
    NotSeated,
    NotYourTurn,
    Phase,
    StaleVersion,
)
from bot.service.announce import Announcer
from bot.service.bot_turns import BotTurns
from bot.service.games import Games
from bot.service.steps import Steps
from bot.service.store import Conflict, LiveTable, TableStore, require_phase


class Play:
    """Acting at a table: a seat's move checked (seat, phase, version, turn) and stepped."""

    def __init__(
        self,
        store: TableStore,
        games: Games,
        steps: Steps,
        announcer: Announcer,
        bots: BotTurns,
    ) -> None:
        self._store = store
        self._games = games
        self._steps = steps
        self._announcer = announcer
        self._bots = bots

    async def act(self, table_id: int, user_id: int, move: str, expected_version: int) -> Effects:
        """Play ``move`` (a full move, one segment of a pending 7, a figure action, an exchange
        pick) for the user's seat, then the bot turns and automatic actions that follow.

        ``expected_version`` is the version the button or prompt carried.
        """
        for _attempt in range(3):
            try:
                async with self._store.session(table_id) as live:
                    return await self._act(live, user_id, move.strip(), expected_version)
            except Conflict:
                continue  # another process wrote first: re-read and judge again
        raise StaleVersion()

    async def exchange_pick(
        self, table_id: int, user_id: int, card: str, expected_version: int
    ) -> Effects:
        """Pick the card to pass to your partner (race games' exchange, C-10.5), or change
        the pick while some seat has not picked yet (with a version drawn after your pick)."""
        return await self.act(table_id, user_id, f"G:{card.strip()}", expected_version)

    def _check_version(self, live: LiveTable, seat: int, expected: int) -> None:
        """Stale if the version is from before the start or this seat has acted since."""
        record = live.record
        if expected > record.version or expected < record.extra.get("started_version", 0):
            raise StaleVersion()
        for entry in reversed(live.recent):
            if entry.version <= expected:
                return
            if entry.seat == seat and entry.kind in (LogKind.MOVE, LogKind.AUTO):
                raise StaleVersion()
        if len(live.recent) == live.recent.maxlen:
            raise StaleVersion()  # older than anything kept in memory: surely over

    def _may_change_pick(self, live: LiveTable, seat: int) -> bool:
        """Whether ``seat`` already picked in an exchange that is still open and the engine
        lets it pick again (C-10.5: until every seat has picked; D-4.4 for Dog, a house
        decision for Tock). The engine decides by listing ``G:`` moves for the seat."""
        if live.state is None or live.record.phase != Phase.PLAYING:
            return False
        view = live.public_view(self._games.of(live.record))
        if view.get("phase") != "exchange" or seat not in (view.get("exchanged") or ()):
            return False
        return any(text.startswith("G:") for text in self._announcer.legal_texts(live, seat))

    async def _act(self, live: LiveTable, user_id: int, move: str, expected: int) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if seat is None or seat.left:
            raise NotSeated()
        require_phase(record, Phase.PLAYING)
        self._check_version(live, seat.index, expected)
        module = self._games.of(live.record)
        if seat.index not in module.seats_to_act(live.state) and not self._may_change_pick(
            live, seat.index
        ):
            raise NotYourTurn()
        if not move:
            raise IllegalMoveError("error.say_move")
        effects = Effects(record)
        await self._steps.step(live, effects, LogKind.MOVE, seat.index, move)
        missed = record.extra.get("timeouts", {})
        if str(seat.index) in missed:
            # The person is back: only timeouts in a row count. (Staged with the move.)
            rest = {k: v for k, v in missed.items() if k != str(seat.index)}
            live.record = live.record.with_changes(extra={**live.record.extra, "timeouts": rest})
        await self._bots.follow_up(live, effects)
        return effects

    async def moved_next(self, table_id: int, user_id: int, version: int) -> bool:
        """Whether the first action stored after ``version`` is ``user_id``'s own move."""
        async with self._store.reading(table_id) as live:
            seat = live.record.seat_of(user_id)
            if seat is None:
                return False
            for entry in live.recent:
                if entry.version > version:
                    return entry.seat == seat.index and entry.kind == LogKind.MOVE
            return False

    async def private_info(self, table_id: int, user_id: int) -> PrivateInfo:
        """What ``user_id`` may see at this table: their seat, view and legal moves."""
        async with self._store.reading(table_id) as live:
            seat = live.record.seat_of(user_id)
            if seat is None or live.state is None:
                view = None
                if live.state is not None:
                    view = live.public_view(self._games.of(live.record))
                return PrivateInfo(live.record, None if seat is None else seat.index, view)
            game = self._games.of(live.record)
            to_act = (
                seat.index in game.seats_to_act(live.state) and live.record.phase == Phase.PLAYING
            )
            legal: tuple[str, ...] = ()
            if to_act or self._may_change_pick(live, seat.index):
                legal = tuple(self._announcer.legal_texts(live, seat.index))
            view = game.view(live.state, seat.index)
            pick = view.get("my_pick") if view.get("phase") == "exchange" else None
            return PrivateInfo(
                live.record,
                seat.index,
                view,
                legal,
                to_act,
                labels=self._announcer.labels(live, seat.index, legal),
                seven_starts=self._announcer.seven_starts(live, seat.index) if to_act else {},
                pick=None if pick is None else str(pick),
                stuck=self._stuck_now(live, seat.index, legal) if to_act else None,
            )

    def _stuck_now(
        self, live: LiveTable, seat: int, legal: tuple[str, ...]
    ) -> dict[str, Any] | None:
        """Why ``seat`` must discard or fold now (the engine's facts), when its only moves are
        a fold or discards without a ban; None otherwise (the engine is not asked then)."""
        explain = getattr(self._games.of(live.record), "stuck_reason", None)
        if explain is None or not legal:
            return None
        if legal != ("F",) and not all(m.endswith(":D") for m in legal):
            return None
        facts: dict[str, Any] | None = explain(live.state, seat)
        return facts
