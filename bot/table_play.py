"""Play operations of the table service: a person's move, an exchange pick (or its change).

A button carries the version it was drawn at; it is stale once the same seat acted since
(or the game started since), so other seats' picks in a simultaneous exchange leave it
valid. A seat that already picked may change its pick while the exchange is open
(C-10.5) when the engine lists ``G:`` moves for it (N-7.2).
"""

from __future__ import annotations

from typing import Any

from bot.effects import Effects
from bot.table_core import Conflict, LiveTable
from bot.table_history import stuck_reason
from bot.table_model import (
    IllegalMoveError,
    LogEntry,
    LogKind,
    NotSeated,
    NotYourTurn,
    Phase,
    StaleVersion,
    TableRecord,
)
from bot.table_updates import UpdatesMixin


class PlayMixin(UpdatesMixin):
    """Acting at a table: validation, applying one logged action, the state after it."""

    async def act(self, table_id: int, user_id: int, move: str, expected_version: int) -> Effects:
        """Play ``move`` (a full move, one segment of a pending 7, a figure action, an exchange
        pick) for the user's seat, then the bot turns and automatic actions that follow.

        ``expected_version`` is the version the button or prompt carried.
        """
        for _attempt in range(3):
            try:
                async with self._session(table_id) as live:
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
        view = live.public_view(self._game(live))
        if view.get("phase") != "exchange" or seat not in (view.get("exchanged") or ()):
            return False
        return any(text.startswith("G:") for text in self._legal_texts(live, seat))

    async def _act(self, live: LiveTable, user_id: int, move: str, expected: int) -> Effects:
        record = live.record
        seat = record.seat_of(user_id)
        if seat is None or seat.left:
            raise NotSeated()
        self._require_phase(record, Phase.PLAYING)
        self._check_version(live, seat.index, expected)
        module = self._game(live)
        if seat.index not in module.seats_to_act(live.state) and not self._may_change_pick(
            live, seat.index
        ):
            raise NotYourTurn()
        if not move:
            raise IllegalMoveError("error.say_move")
        effects = Effects(record)
        await self._step(live, effects, LogKind.MOVE, seat.index, move)
        missed = record.extra.get("timeouts", {})
        if str(seat.index) in missed:
            # The person is back: only timeouts in a row count. (Staged with the move.)
            rest = {k: v for k, v in missed.items() if k != str(seat.index)}
            live.record = live.record.with_changes(extra={**live.record.extra, "timeouts": rest})
        await self._follow_up(live, effects)
        return effects

    async def _step(
        self, live: LiveTable, effects: Effects, kind: LogKind, seat: int, move: str = ""
    ) -> None:
        """Apply one logged action, commit it, and add its updates to ``effects``."""
        module = self._game(live)
        before = frozenset(module.seats_to_act(live.state))
        secret = self._is_secret(live, before)
        # A seat that already picked and picks again changes its pick (C-10.5).
        changed = kind == LogKind.MOVE and seat not in before
        if kind == LogKind.MOVE:
            state, text = self._apply_move(module, live.state, seat, move)
        elif kind == LogKind.AUTO:
            state, text = module.auto_action(live.state, seat), ""
        else:
            state, text = module.leave(live.state, seat), ""
        stuck = stuck_reason(module, live.state, state, seat)
        version = live.record.version + 1
        entry = LogEntry(live.record.log_length, kind, seat, text, version)
        record = self._after_action(live.record, module, state, version, before)
        self._stage(live, record, [entry], state)
        effects.table = live.record
        self._public_action(
            live, effects, kind, seat, text, secret=secret, changed=changed, stuck=stuck
        )
        self._private_updates(live, effects, actor=seat, previous=before)

    def _after_action(
        self,
        record: TableRecord,
        module: Any,
        state: Any,
        version: int,
        previous: frozenset[int],
    ) -> TableRecord:
        outcome = module.outcome(state)
        if outcome is not None:
            return record.with_changes(
                version=version,
                phase=Phase.FINISHED,
                winners=tuple(outcome.winners),
                deadline=None,
                reminded=False,
            )
        return self._with_clock(record.with_changes(version=version), module, state, previous)
