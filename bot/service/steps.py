"""Steps: one action at a table, applied, staged and announced; the state after it.

Every logged change of a game in play goes through here: a person's move, a bot's, a left
seat's automatic action, a seat handed to the absent-player policy, and the end of a table
without a result. Owns nothing; it sits below everything that plays (play, bots, the turn
clock, the lobby), so none of those needs another to take a step.
"""

from __future__ import annotations

from typing import Any

from bot.model.clock import Clock
from bot.model.effects import Effects, PublicUpdate
from bot.model.game_log import apply_move
from bot.model.history import public_events, stuck_reason
from bot.model.table import LogEntry, LogKind, Phase, Seat, TableRecord, bot_level_of
from bot.service.announce import Announcer
from bot.service.games import Games
from bot.service.store import LiveTable, TableStore
from i18n.message import Said, joined, msg


class Steps:
    """Applies one action to a live table and adds what it tells to the effects."""

    def __init__(
        self,
        store: TableStore,
        games: Games,
        announcer: Announcer,
        clock: Clock,
        *,
        turn_scale: float = 1.0,
    ) -> None:
        self._store = store
        self._games = games
        self._announcer = announcer
        self._clock = clock
        #: 1 but in tests (see :func:`bot.service.turn_clock.turn_seconds`).
        self._turn_scale = turn_scale

    async def step(
        self, live: LiveTable, effects: Effects, kind: LogKind, seat: int, move: str = ""
    ) -> None:
        """Apply one logged action (staged; the session commits it) and add its updates to
        ``effects``. Raises :class:`~bot.model.table.IllegalMoveError` for a refused move."""
        module = self._games.of(live.record)
        before = frozenset(module.seats_to_act(live.state))
        secret = self._announcer.is_secret(live, before)
        # A seat that already picked and picks again changes its pick (C-10.5).
        changed = kind == LogKind.MOVE and seat not in before
        if kind == LogKind.MOVE:
            state, text = apply_move(module, live.state, seat, move)
        elif kind == LogKind.AUTO:
            state, text = module.auto_action(live.state, seat), ""
        else:
            state, text = module.leave(live.state, seat), ""
        stuck = stuck_reason(module, live.state, state, seat)
        version = live.record.version + 1
        entry = LogEntry(live.record.log_length, kind, seat, text, version)
        record = self.after_action(live.record, module, state, version, before)
        self._store.stage(live, record, [entry], state)
        effects.table = live.record
        self._announcer.action(
            live, effects, kind, seat, text, secret=secret, changed=changed, stuck=stuck
        )
        self._announcer.private_updates(live, effects, actor=seat, previous=before)

    def after_action(
        self,
        record: TableRecord,
        module: Any,
        state: Any,
        version: int,
        previous: frozenset[int],
    ) -> TableRecord:
        """The record after an action: finished with its winners, or with its turn clock."""
        outcome = module.outcome(state)
        if outcome is not None:
            return record.with_changes(
                version=version,
                phase=Phase.FINISHED,
                winners=tuple(outcome.winners),
                deadline=None,
                reminded=False,
            )
        return self.with_deadline(record.with_changes(version=version), module, state, previous)

    def with_deadline(
        self, record: TableRecord, module: Any, state: Any, previous: frozenset[int]
    ) -> TableRecord:
        """Set the turn clock: a new deadline when a person newly owes a decision; kept while
        the same people still owe theirs (exchange picks, a 7's segments, a figure)."""
        if not record.turn_time:
            return record
        humans = {s.index for s in record.seats if s.is_human}
        owing = frozenset(module.seats_to_act(state)) & humans
        if not owing:
            return record.with_changes(deadline=None, reminded=False)
        if record.deadline is not None and owing <= (previous & humans):
            return record
        turn = record.turn_time * self._turn_scale
        return record.with_changes(deadline=self._clock.now() + turn, reminded=False)

    async def hand_over(self, live: LiveTable, seat: Seat, how: str) -> Effects:
        """A person's seat in play goes to the absent-player policy (the engine's automatic
        actions, or a bot); the table is abandoned when no person is left. ``how``: the
        person was ``removed``, ``left`` or ``timed_out``. The caller plays the bot turns
        that follow (:meth:`bot.service.bot_turns.BotTurns.follow_up`)."""
        record = live.record
        user_id = seat.user_id
        name = seat.label
        remaining = [s for s in record.seats if s.is_human and s.user_id != user_id]
        if not remaining:
            return await self.abandon(live, msg(f"table.{how}_no_person", name=name))
        effects = Effects(record)
        seats = list(record.seats)
        position = seats.index(seat)
        module = self._games.of(record)
        before = frozenset(module.seats_to_act(live.state))
        version = record.version + 1
        if record.absent_policy == "bot":
            seats[position] = Seat(
                seat.index,
                name=seat.name,
                bot_level=bot_level_of(record),
                former_user_id=user_id,
            )
            entry = LogEntry(record.log_length, LogKind.BOT, seat.index, "", version)
            state = live.state
            text: Said = msg(f"table.{how}_bot", name=name)
        else:
            seats[position] = Seat(seat.index, name=seat.name, left=True, former_user_id=user_id)
            entry = LogEntry(record.log_length, LogKind.LEAVE, seat.index, "", version)
            state = module.leave(live.state, seat.index)
            text = msg(f"table.{how}_auto", name=name)
        host = record.host_id
        if host == user_id:
            host = remaining[0].user_id or host
            text = joined([text, msg("table.new_host", name=remaining[0].label)])
        new = self.after_action(
            record.with_changes(seats=tuple(seats), host_id=host), module, state, version, before
        )
        self._store.stage(live, new, [entry], state)
        effects.table = live.record
        view = live.public_view(module)
        effects.public.append(
            PublicUpdate(
                record.id,
                "action",
                text,
                new.version,
                view,
                tuple(view["to_act"]),
                actor=seat.index,
                events=public_events(state) if entry.kind == LogKind.LEAVE else (),
                finished=new.phase == Phase.FINISHED,
                winners=new.winners,
            )
        )
        self._announcer.private_updates(live, effects, actor=seat.index, previous=before)
        return effects

    async def abandon(self, live: LiveTable, text: Said) -> Effects:
        """End the table without a result, committed now, and say why."""
        record = live.record.with_changes(
            phase=Phase.ABANDONED, version=live.record.version + 1, deadline=None, reminded=False
        )
        await self._store.write(live, record, [], live.state)
        self._store.forget(record.id)
        return Effects(record, [self._announcer.lobby_update(record, "abandoned", text)])
