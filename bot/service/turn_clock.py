"""The turn clock: deadlines, half-time reminders and timeouts.

:class:`Schedule` owns when each table's next clock event is due (a reminder at half the turn
time, then the timeout); the store tells it of every commit. :class:`TurnClock` owns the task
that sleeps until the next event and plays it: a reminder, or a timeout's automatic action
(after too many timeouts in a row the seat goes to the absent-player policy), then the bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence

from bot.model.clock import Clock
from bot.model.effects import Effects, Listener, PrivateUpdate, PublicUpdate
from bot.model.table import LogEntry, LogKind, Phase, TableError, TableRecord
from bot.service.bot_turns import BotTurns
from bot.service.games import Games
from bot.service.steps import Steps
from bot.service.store import Conflict, TableStore
from i18n.message import msg

log = logging.getLogger(__name__)


#: How often (seconds) the clock loop wakes even with nothing due, to notice clock jumps.
_CLOCK_POLL = 30.0


def turn_seconds(record: TableRecord, scale: float = 1.0) -> float:
    """The seconds a turn of ``record`` lasts: its turn time, times ``scale``.

    ``scale`` is 1 for every table of the product (the shortest turn a table offers is
    :data:`~bot.model.table.TURN_TIMES`' 60 s, shown and stored as chosen); only a test or a
    demonstration sets ``TURN_TIME_SCALE`` below 1 to live through a minute's turn in less.
    """
    return record.turn_time * scale


class Schedule:
    """When each table's next clock event (reminder or timeout) is due, in this process.

    ``scale``: see :func:`turn_seconds` (1 but in tests)."""

    def __init__(self, scale: float = 1.0) -> None:
        self._armed: dict[int, float] = {}  # table id -> next clock event
        self._wake = asyncio.Event()
        self.scale = scale

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """Arm the table's next event after a commit, or disarm a table without a deadline."""
        if record.deadline is not None and record.phase == Phase.PLAYING:
            self.arm(record)
        else:
            self.disarm(record.id)

    def arm(self, record: TableRecord) -> None:
        """Due at half the turn time before the deadline (the reminder), then at it."""
        assert record.deadline is not None
        when = record.deadline
        if not record.reminded:
            when = record.deadline - turn_seconds(record, self.scale) / 2
        self._armed[record.id] = when
        self._wake.set()

    def disarm(self, table_id: int) -> None:
        """No event for this table (until it is armed again)."""
        self._armed.pop(table_id, None)

    def due(self, now: float) -> list[int]:
        """The tables whose event is due at ``now``, soonest first, disarmed (the caller
        plays them; playing arms what comes next)."""
        due = sorted((when, table_id) for table_id, when in self._armed.items() if when <= now)
        for _when, table_id in due:
            del self._armed[table_id]
        return [table_id for _when, table_id in due]

    def next_in(self, now: float, poll: float) -> float:
        """Seconds until the next event, at most ``poll``."""
        return min([*(when - now for when in self._armed.values()), poll])

    async def changed(self, clock: Clock, delay: float) -> None:
        """Sleep ``delay`` seconds of ``clock``, or less if a table is armed meanwhile."""
        self._wake.clear()
        sleeper = asyncio.ensure_future(clock.sleep(delay))
        waker = asyncio.ensure_future(self._wake.wait())
        await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        sleeper.cancel()
        waker.cancel()


class TurnClock:
    """Plays each table's due clock event; one task per process runs it."""

    def __init__(
        self,
        schedule: Schedule,
        store: TableStore,
        games: Games,
        steps: Steps,
        bots: BotTurns,
        clock: Clock,
        *,
        listener: Listener | None = None,
        timeouts_before_leave: int = 3,
    ) -> None:
        self._schedule = schedule
        self._store = store
        self._games = games
        self._steps = steps
        self._bots = bots
        self._clock = clock
        self._listener = listener
        self._timeouts_before_leave = timeouts_before_leave
        self._task: asyncio.Task[None] | None = None

    def start(self, records: Iterable[TableRecord], owns_guild: Callable[[int], bool]) -> None:
        """Arm the deadlines of this process's tables and start the clock loop."""
        for record in records:
            if owns_guild(record.guild_id):
                self._schedule.arm(record)
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="turn-clock")

    async def stop(self) -> None:
        """Stop the clock loop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def run_due(self) -> None:
        """Deliver every turn-clock event that is due now (reminders and timeouts).

        The clock loop calls this; tests call it after moving a :class:`FakeClock`.
        """
        now = self._clock.now()
        for table_id in self._schedule.due(now):
            try:
                effects = await self._event(table_id, now)
            except TableError:
                continue
            except Conflict:
                # Another process moved the table on: arm whatever deadline it stored.
                record = await self._store.find(table_id)
                if record is not None and record.deadline is not None and record.active:
                    self._schedule.arm(record)
                continue
            except Exception:  # one broken table must not stop the others' clocks
                log.exception("turn clock of table %s failed", table_id)
                continue
            if effects is not None and self._listener is not None:
                await self._listener(effects)

    async def _loop(self) -> None:
        while True:
            delay = self._schedule.next_in(self._clock.now(), _CLOCK_POLL)
            if delay > 0:
                await self._schedule.changed(self._clock, delay)
            try:
                await self.run_due()
            except Exception:  # a failing table must not stop every other table's clock
                log.exception("turn clock failed")

    async def _event(self, table_id: int, now: float) -> Effects | None:
        async with self._store.session(table_id) as live:
            record = live.record
            if record.phase != Phase.PLAYING or record.deadline is None:
                return None
            module = self._games.of(record)
            humans = {s.index: s for s in record.seats if s.is_human}
            owing = sorted(set(module.seats_to_act(live.state)) & set(humans))
            if now < record.deadline:
                half = turn_seconds(record, self._schedule.scale) / 2
                if record.reminded or now < record.deadline - half:
                    # Reminded already, or not half-time yet (another process restarted this
                    # turn's clock since this one was armed): wait for what is due.
                    self._schedule.arm(record)
                    return None
                # Two processes may both get here (a rolling restart): the one whose claim
                # storage takes reminds; the other gets Conflict and re-arms.
                new = await self._store.claim_reminder(live)
                self._schedule.arm(new)
                left = int(record.deadline - now)
                effects = Effects(live.record)
                effects.public.append(
                    PublicUpdate(
                        table_id,
                        "reminder",
                        msg("table.half_time", count=left),
                        new.version,
                        to_act=tuple(owing),
                    )
                )
                for seat in owing:
                    user = humans[seat].user_id
                    assert user is not None
                    effects.pings.append(user)
                    effects.private.append(
                        PrivateUpdate(
                            table_id,
                            user,
                            seat,
                            "reminder",
                            msg("table.your_turn_left", count=left),
                            new.version,
                        )
                    )
                return effects
            effects = Effects(record)
            for seat in owing:
                if live.record.phase != Phase.PLAYING:
                    break
                if seat not in module.seats_to_act(live.state):
                    continue
                user = humans[seat].user_id
                assert user is not None
                missed = dict(live.record.extra.get("timeouts", {}))
                missed[str(seat)] = missed.get(str(seat), 0) + 1
                if self._timeouts_before_leave and missed[str(seat)] >= self._timeouts_before_leave:
                    # Away for good, it seems: the seat goes to the absent-player policy.
                    person = live.record.seat_of(user)
                    assert person is not None
                    removed = await self._steps.hand_over(live, person, "timed_out")
                    await self._bots.follow_up(live, removed)
                    effects.extend(removed)
                    continue
                await self._steps.step(live, effects, LogKind.AUTO, seat)
                extra = {**live.record.extra, "timeouts": missed}
                live.record = live.record.with_changes(extra=extra)
                effects.private.append(
                    PrivateUpdate(
                        table_id,
                        user,
                        seat,
                        "timeout",
                        msg("table.timed_out_auto_you"),
                        live.record.version,
                    )
                )
            if live.record.phase == Phase.PLAYING and (live.record.deadline or now + 1) <= now:
                # The same person still owes a decision (or nobody does): restart the clock.
                cleared = live.record.with_changes(deadline=None, reminded=False)
                fresh = self._steps.with_deadline(cleared, module, live.state, frozenset())
                await self._store.write(live, fresh, [], live.state)
            # The bots after a timeout: a slow one thinks in the background (defer_slow_bots),
            # not while this clock holds up the other tables' deadlines.
            await self._bots.follow_up(live, effects)
            return effects
