"""Bot turns and automatic actions: what the table service plays without asking anyone."""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from typing import Any

from bot.bots import is_instant, slow_levels
from bot.effects import Effects
from bot.table_core import Conflict, LiveTable
from bot.table_model import IllegalMoveError, LogKind, Phase, bot_level_of
from bot.table_updates import UpdatesMixin

log = logging.getLogger(__name__)


#: A safety net: no single request runs more automatic actions than this.
_MAX_CHAINED_ACTIONS = 5_000


class BotTurnsMixin(UpdatesMixin):
    """Plays bots and left seats until a person owes a decision (now or in the background)."""

    async def _follow_up(self, live: LiveTable, effects: Effects) -> None:
        """Run the bot turns and automatic actions after an operation: now (into ``effects``),
        or in a background task that delivers them to the listener: all of them with
        ``defer_bots``, and with ``defer_slow_bots`` those from the first bot whose level
        thinks long (a ``hard`` search) on, so the operation's answer does not wait for it."""
        if self.listener is None or not (self.defer_bots or self.defer_slow_bots):
            await self._advance(live, effects)
            return
        if not self.defer_bots and not await self._advance(live, effects, slow_limit=0):
            return
        task = asyncio.create_task(self._advance_later(live.record.id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _advance_later(self, table_id: int) -> None:
        """Play the pending bot turns in the background, each delivery committed on its own
        so other requests at this table can come in between: one action at a time with
        ``defer_bots``, else one slow bot's move and the quick actions after it."""
        assert self.listener is not None
        more = True
        while more:
            try:
                async with self._session(table_id) as live:
                    effects = Effects(live.record)
                    if self.defer_bots:
                        more = await self._advance(live, effects, limit=1)
                    else:
                        more = await self._advance(live, effects, slow_limit=1)
            except Conflict:
                continue
            except Exception:
                log.exception("bot turns at table %s failed", table_id)
                return
            if effects.public or effects.private:
                await self.listener(effects)

    async def idle(self) -> None:
        """Wait until the background bot turns (``defer_bots``) have all been played."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def _advance(
        self,
        live: LiveTable,
        effects: Effects,
        *,
        limit: int = _MAX_CHAINED_ACTIONS,
        slow_limit: int | None = None,
    ) -> bool:
        """Play what nobody needs to be asked for: left seats' automatic actions and bot turns,
        until a person owes a decision or the game is over (then return False), or until
        ``limit`` actions, or ``slow_limit`` moves of slow bots, were played (then return
        True: more may follow)."""
        module = self._game(live)
        slow = slow_levels(self.choose_bot_move)
        slow_played = 0
        for _ in range(limit):
            record = live.record
            if record.phase != Phase.PLAYING:
                return False
            to_act = sorted(module.seats_to_act(live.state))
            by_index = {s.index: s for s in record.seats}
            left = [s for s in to_act if by_index[s].left]
            if left:
                await self._step(live, effects, LogKind.AUTO, left[0])
                continue
            bots = [s for s in to_act if by_index[s].is_bot]
            if not bots:
                return False
            seat = bots[0]
            legal = self._legal_texts(live, seat)
            view = module.view(live.state, seat)
            level = by_index[seat].bot_level or bot_level_of(record)
            if level in slow:
                if slow_limit is not None and slow_played >= slow_limit:
                    return True
                slow_played += 1
            bot_seed = (record.seed * 1_000_003 + record.version * 101 + seat) % (1 << 63)
            text = await self._bot_move(record.game, view, level, legal, bot_seed)
            try:
                await self._step(live, effects, LogKind.MOVE, seat, text)
            except IllegalMoveError:
                log.warning("bot at table %s chose illegal %r; random move", record.id, text)
                fallback = random.Random(bot_seed).choice(legal)
                await self._step(live, effects, LogKind.MOVE, seat, fallback)
        if limit == _MAX_CHAINED_ACTIONS:
            log.error("table %s: too many automatic actions in a row", live.record.id)
        return True

    async def _bot_move(self, game: str, view: Any, level: str, legal: list[str], seed: int) -> str:
        """The chooser's move: called on the loop (instant), awaited (a pool of worker
        processes), or else in a thread (a thinking bot must never block the other tables)."""
        chooser = self.choose_bot_move
        if is_instant(chooser):
            text = chooser(game, view, level, legal, seed)
        elif inspect.iscoroutinefunction(chooser) or inspect.iscoroutinefunction(
            type(chooser).__call__
        ):
            text = await chooser(game, view, level, legal, seed)  # type: ignore[misc]
        else:
            text = await asyncio.to_thread(chooser, game, view, level, legal, seed)
        return str(text)
