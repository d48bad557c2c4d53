"""Bot turns: what the table service plays without asking anyone.

Plays bots and left seats' automatic actions until a person owes a decision: now, into the
operation's effects, or in the background (``defer_bots``; ``defer_slow_bots`` from the first
slow bot on), delivering each to the listener. Owns the background tasks and, per table, whether
a slow bot's thinker is under way and whether the table changed since it last looked.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from bot.bots.choosers import BotChooser, is_instant, slow_levels
from bot.model.effects import Effects, Listener
from bot.model.history import is_secret_move
from bot.model.table import IllegalMoveError, LogKind, Phase, bot_level_of
from bot.service.announce import Announcer
from bot.service.games import Games
from bot.service.steps import Steps
from bot.service.store import Conflict, LiveTable, TableStore

log = logging.getLogger(__name__)


#: A safety net: no single request runs more automatic actions than this.
_MAX_CHAINED_ACTIONS = 5_000


@dataclass(frozen=True, slots=True, eq=False)
class BotAsk:
    """What a bot is asked to decide: its seat's view of the table at ``version``."""

    version: int
    seat: int
    game: str
    view: Any
    level: str
    legal: list[str]
    seed: int


class BotTurns:
    """Plays bots and left seats until a person owes a decision (now or in the background)."""

    def __init__(
        self,
        store: TableStore,
        games: Games,
        steps: Steps,
        announcer: Announcer,
        choose_bot_move: BotChooser,
        *,
        listener: Listener | None = None,
        defer_bots: bool = False,
        defer_slow_bots: bool = False,
    ) -> None:
        self._store = store
        self._games = games
        self._steps = steps
        self._announcer = announcer
        self.choose_bot_move = choose_bot_move
        self._listener = listener
        self._defer_bots = defer_bots
        self._defer_slow_bots = defer_slow_bots
        self._background: set[asyncio.Task[None]] = set()
        self._thinkers: set[int] = set()  # tables whose slow bots think in the background
        self._rethink: set[int] = set()  # ... and that changed since their thinker last looked

    async def follow_up(self, live: LiveTable, effects: Effects) -> None:
        """Run the bot turns and automatic actions after an operation: now (into ``effects``),
        or in a background task that delivers them to the listener: all of them with
        ``defer_bots``, and with ``defer_slow_bots`` those from the first bot whose level
        thinks long (a ``hard`` search) on, so the operation's answer does not wait for it.
        Nothing is played on a table that is no longer in play."""
        if live.record.phase != Phase.PLAYING:
            return
        if self._listener is None or not (self._defer_bots or self._defer_slow_bots):
            await self._advance(live, effects)
            return
        if not self._defer_bots and not await self._advance(live, effects, slow_limit=0):
            return
        if self._defer_bots:
            self._in_background(self._advance_later(live.record.id))
        elif live.record.id in self._thinkers:
            # This table's thinker is under way: it looks at the table again before it ends.
            self._rethink.add(live.record.id)
        else:
            self._thinkers.add(live.record.id)
            self._in_background(self._think_later(live.record.id))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _advance_later(self, table_id: int) -> None:
        """Play the pending bot turns one at a time, each committed and delivered on its own,
        so other requests at this table can come in between."""
        assert self._listener is not None
        more = True
        while more:
            try:
                async with self._store.session(table_id) as live:
                    effects = Effects(live.record)
                    more = await self._advance(live, effects, limit=1)
            except Conflict:
                continue
            except Exception:
                log.exception("bot turns at table %s failed", table_id)
                return
            if effects.public or effects.private:
                await self._listener(effects)

    async def _think_later(self, table_id: int) -> None:
        """Play the slow bots' moves in the background, each with the quick actions after it
        in one delivery. A slow bot thinks *outside* the table's session: the table answers
        other requests meanwhile (a person's exchange pick, a "Show my hand"), and a move
        found for a version that is no longer current is thought again. One such task runs
        per table (see :meth:`follow_up`)."""
        try:
            await self._think(table_id)
        finally:
            self._thinkers.discard(table_id)
            self._rethink.discard(table_id)

    async def _think(self, table_id: int) -> None:
        assert self._listener is not None
        ask: BotAsk | None = None
        text = ""
        while True:
            try:
                async with self._store.session(table_id) as live:
                    self._rethink.discard(table_id)  # this session sees the newest table
                    effects = Effects(live.record)
                    # Every change of the table bumps its version: the same version is the
                    # same position, for which the move was found.
                    if ask is not None and live.record.version == ask.version:
                        await self._play_bot(live, effects, ask, text)
                    more = await self._advance(live, effects, slow_limit=0)
                    ask = self._bot_ask(live) if more else None
            except Conflict:
                continue
            except Exception:
                log.exception("bot turns at table %s failed", table_id)
                return
            if effects.public or effects.private:
                await self._listener(effects)
            if ask is None and table_id not in self._rethink:
                return
            if ask is not None:
                text = await self._bot_move(ask)

    async def idle(self) -> None:
        """Wait until the background bot turns (``defer_bots``) have all been played."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the bot turns under way in the background (they are played again later:
        nothing of a move is stored before it is complete)."""
        for task in list(self._background):
            task.cancel()
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
        slow = slow_levels(self.choose_bot_move)
        slow_played = 0
        for _ in range(limit):
            record = live.record
            if record.phase != Phase.PLAYING:
                return False
            module = self._games.of(live.record)
            by_index = {s.index: s for s in record.seats}
            left = [s for s in sorted(module.seats_to_act(live.state)) if by_index[s].left]
            if left:
                await self._steps.step(live, effects, LogKind.AUTO, left[0])
                continue
            ask = self._bot_ask(live)
            if ask is None:
                return False
            if ask.level in slow:
                if slow_limit is not None and slow_played >= slow_limit:
                    return True
                slow_played += 1
            await self._play_bot(live, effects, ask, await self._bot_move(ask))
        if limit == _MAX_CHAINED_ACTIONS:
            log.error("table %s: too many automatic actions in a row", live.record.id)
        return True

    def _bot_ask(self, live: LiveTable) -> BotAsk | None:
        """The decision the next bot to act owes, or None when no bot owes one now."""
        record = live.record
        if record.phase != Phase.PLAYING:
            return None
        module = self._games.of(live.record)
        by_index = {s.index: s for s in record.seats}
        to_act = sorted(module.seats_to_act(live.state))
        if any(by_index[s].left for s in to_act):
            return None  # the left seats' automatic actions come first
        bots = [s for s in to_act if by_index[s].is_bot]
        if not bots:
            return None
        seat = bots[0]
        return BotAsk(
            version=record.version,
            seat=seat,
            game=record.game,
            view=module.view(live.state, seat),
            level=by_index[seat].bot_level or bot_level_of(record),
            legal=self._announcer.legal_texts(live, seat),
            seed=(record.seed * 1_000_003 + record.version * 101 + seat) % (1 << 63),
        )

    async def _play_bot(self, live: LiveTable, effects: Effects, ask: BotAsk, text: str) -> None:
        """Apply the bot's move (a seeded random legal one if the engine refuses it)."""
        try:
            await self._steps.step(live, effects, LogKind.MOVE, ask.seat, text)
        except IllegalMoveError:
            # The log is no place for a pick: it names a card of the bot's hand.
            said = "an exchange pick" if is_secret_move(ask.game, text) else repr(text)
            log.warning("bot at table %s chose illegal %s; random move", live.record.id, said)
            fallback = random.Random(ask.seed).choice(ask.legal)
            await self._steps.step(live, effects, LogKind.MOVE, ask.seat, fallback)

    async def _bot_move(self, ask: BotAsk) -> str:
        """The chooser's move: called on the loop (instant), awaited (a pool of worker
        processes), or else in a thread (a thinking bot must never block the other tables)."""
        chooser = self.choose_bot_move
        args = (ask.game, ask.view, ask.level, ask.legal, ask.seed)
        if is_instant(chooser):
            text = chooser(*args)
        elif inspect.iscoroutinefunction(chooser) or inspect.iscoroutinefunction(
            type(chooser).__call__
        ):
            text = await chooser(*args)  # type: ignore[misc]
        else:
            text = await asyncio.to_thread(chooser, *args)
        return str(text)
