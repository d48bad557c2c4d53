"""The turn clock: deadlines, half-time reminders and timeouts of the table service."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.effects import Effects, PrivateUpdate, PublicUpdate
from bot.table_core import Conflict, TableCore
from bot.table_model import LogKind, Phase, TableError, TableRecord
from i18n.message import msg

log = logging.getLogger(__name__)


#: How often (seconds) the clock loop wakes even with nothing due, to notice clock jumps.
_CLOCK_POLL = 30.0


class TurnClockMixin(TableCore):
    """Arms each table's next clock event and plays it when due."""

    async def run_due(self) -> None:
        """Deliver every turn-clock event that is due now (reminders and timeouts).

        The clock loop calls this; tests call it after moving a :class:`FakeClock`.
        """
        now = self.clock.now()
        for table_id, when in sorted(self._armed.items(), key=lambda item: item[1]):
            if when > now:
                continue
            try:
                effects = await self._clock_event(table_id, now)
            except TableError:
                self._armed.pop(table_id, None)
                continue
            except Conflict:
                # Another process moved the table on: arm whatever deadline it stored.
                record = await self.storage.load_table(table_id)
                if record is not None and record.deadline is not None and record.active:
                    self._arm(record)
                continue
            except Exception:  # one broken table must not stop the others' clocks
                log.exception("turn clock of table %s failed", table_id)
                continue
            if effects is not None and self.listener is not None:
                await self.listener(effects)

    def _with_clock(
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
        return record.with_changes(deadline=self.clock.now() + record.turn_time, reminded=False)

    def _arm(self, record: TableRecord) -> None:
        assert record.deadline is not None
        when = record.deadline
        if not record.reminded:
            when = record.deadline - record.turn_time / 2
        self._armed[record.id] = when
        self._wake.set()

    async def _clock_loop(self) -> None:
        while True:
            self._wake.clear()
            now = self.clock.now()
            delay = min([*(w - now for w in self._armed.values()), _CLOCK_POLL])
            if delay > 0:
                sleeper = asyncio.ensure_future(self.clock.sleep(delay))
                waker = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                sleeper.cancel()
                waker.cancel()
            try:
                await self.run_due()
            except Exception:  # a failing table must not stop every other table's clock
                log.exception("turn clock failed")

    async def _clock_event(self, table_id: int, now: float) -> Effects | None:
        self._armed.pop(table_id, None)
        async with self._session(table_id) as live:
            record = live.record
            if record.phase != Phase.PLAYING or record.deadline is None:
                return None
            module = self._game(live)
            humans = {s.index: s for s in record.seats if s.is_human}
            owing = sorted(set(module.seats_to_act(live.state)) & set(humans))
            if now < record.deadline:
                if record.reminded:
                    self._arm(record)
                    return None
                new = record.with_changes(reminded=True)
                await self._write(live, new, [], live.state)
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
                if self.timeouts_before_leave and missed[str(seat)] >= self.timeouts_before_leave:
                    # Away for good, it seems: the seat goes to the absent-player policy.
                    removed = await self._remove_person(live, user, kicked=False, timed_out=True)
                    effects.extend(removed)
                    continue
                await self._step(live, effects, LogKind.AUTO, seat)
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
                fresh = self._with_clock(cleared, module, live.state, frozenset())
                await self._write(live, fresh, [], live.state)
            # The bots after a timeout: a slow one thinks in the background (defer_slow_bots),
            # not while this clock holds up the other tables' deadlines.
            await self._follow_up(live, effects)
            return effects
