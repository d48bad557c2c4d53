"""Bot turns and automatic actions: what the table service plays without asking anyone."""

from __future__ import annotations

import asyncio
import logging
import random

from bot.bots import is_instant
from bot.effects import Effects
from bot.table_core import Conflict, LiveTable
from bot.table_history import is_secret_move
from bot.table_model import ABSENT_BOT_LEVEL, IllegalMoveError, LogKind, Phase
from bot.table_updates import UpdatesMixin

log = logging.getLogger(__name__)


#: A safety net: no single request runs more automatic actions than this.
_MAX_CHAINED_ACTIONS = 5_000


class BotTurnsMixin(UpdatesMixin):
    """Plays bots and left seats until a person owes a decision (now or in the background)."""

    async def _follow_up(self, live: LiveTable, effects: Effects) -> None:
        """Run the bot turns and automatic actions after an operation: now (into ``effects``),
        or, with ``defer_bots``, in a background task that delivers each to the listener."""
        if not (self.defer_bots and self.listener is not None):
            await self._advance(live, effects)
            return
        task = asyncio.create_task(self._advance_later(live.record.id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _advance_later(self, table_id: int) -> None:
        """Play the pending bot turns one at a time, each committed and delivered on its own,
        so other requests at this table can come in between."""
        assert self.listener is not None
        more = True
        while more:
            try:
                async with self._session(table_id) as live:
                    effects = Effects(live.record)
                    more = await self._advance(live, effects, limit=1)
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
        self, live: LiveTable, effects: Effects, *, limit: int = _MAX_CHAINED_ACTIONS
    ) -> bool:
        """Play what nobody needs to be asked for: left seats' automatic actions and bot turns,
        until a person owes a decision or the game is over (then return False), or until
        ``limit`` actions were played (then return True: more may follow)."""
        module = self._game(live)
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
            level = by_index[seat].bot_level or ABSENT_BOT_LEVEL
            bot_seed = (record.seed * 1_000_003 + record.version * 101 + seat) % (1 << 63)
            args = (record.game, view, level, legal, bot_seed)
            if is_instant(self.choose_bot_move):
                text = self.choose_bot_move(*args)
            else:
                # A thinking bot must never block the other tables.
                text = await asyncio.to_thread(self.choose_bot_move, *args)
            try:
                await self._step(live, effects, LogKind.MOVE, seat, text)
            except IllegalMoveError:
                # The log is no place for a pick: it names a card of the bot's hand.
                said = "an exchange pick" if is_secret_move(record.game, text) else repr(text)
                log.warning("bot at table %s chose illegal %s; random move", record.id, said)
                fallback = random.Random(bot_seed).choice(legal)
                await self._step(live, effects, LogKind.MOVE, seat, fallback)
        if limit == _MAX_CHAINED_ACTIONS:
            log.error("table %s: too many automatic actions in a row", live.record.id)
        return True
