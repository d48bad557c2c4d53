"""Sends the outbox (:mod:`bot.model.outbox`): every post owed about a table, exactly once.

Each pending post is leased to this process (:meth:`TableService.claim_post`), made by the
builder of its kind (the results post, the channel's notice, a rematch invitation), sent with
its nonce and marked done only once Discord answered with the message. A crash can fall
between Discord taking the message and the mark; the next try then cannot make a second one:

- within a few minutes Discord itself returns the first message for the same nonce (the
  request carries ``enforce_nonce``, which discord.py sets whenever a nonce is given);
- after that, a post that was tried before is first looked for among the channel's messages
  since it was owed (same author, same text), and only sent if it is not there.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.publisher import Publisher, send_with_retry
from bot.model.outbox import OutboxItem

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

#: Makes a post: the channel (or thread) it goes to and ``channel.send``'s arguments, or None
#: when there is nothing to post any more (the table has no thread, say).
Builder = Callable[[OutboxItem], Awaitable[tuple[int, dict[str, Any]] | None]]
#: How many of a channel's messages since the post was owed are searched for it.
HISTORY_SCAN = 50
#: Seconds before the post was owed that the search starts (clocks of two machines differ).
CLOCK_SLACK = 60.0


def same_post(message: Any, me: int, kwargs: dict[str, Any]) -> bool:
    """Whether ``message`` is the post ``kwargs`` would make (by us, with the same text)."""
    return bool(message.author.id == me and message.content == kwargs.get("content", ""))


class OutboxSender:
    """Sends this process's pending posts; see the module docstring."""

    def __init__(self, service: TableService, publisher: Publisher) -> None:
        self.service = service
        self.publisher = publisher
        self.builders: dict[str, Builder] = {}
        self._sending: set[int] = set()  # posts on their way from this process

    async def flush(self) -> int:
        """Send every pending post of this process's tables; how many Discord took now."""
        sent = 0
        for item in await self.service.posts_to_send():
            if await self.send(item):
                sent += 1
        return sent

    async def send(self, item: OutboxItem) -> bool:
        """Send one post unless it is done or on its way; never raises (what Discord did not
        take is tried again at the next flush)."""
        if item.id in self._sending:
            return False
        self._sending.add(item.id)
        try:
            if not await self.service.claim_post(item):
                return False  # done meanwhile, or another process is sending it
            message_id = await self._send(item)
            await self.service.post_sent(item, message_id)
            return message_id is not None
        except discord.HTTPException as error:
            if 400 <= error.status < 500 and error.status != 429:
                # Discord will never take it (the thread is gone, the bot may not post there).
                log.warning(
                    "giving up the %s post of table %s: %s", item.kind, item.table_id, error
                )
                await self.service.post_sent(item, None)
            else:
                log.warning(
                    "the %s post of table %s did not reach Discord (%s); trying again later",
                    item.kind,
                    item.table_id,
                    error.status,
                )
                await self._release(item)
            return False
        except Exception:
            log.exception("sending the %s post of table %s failed", item.kind, item.table_id)
            await self._release(item)
            return False
        finally:
            self._sending.discard(item.id)

    async def _release(self, item: OutboxItem) -> None:
        try:
            await self.service.post_failed(item)
        except Exception:  # the lease runs out by itself
            log.warning("could not release the %s post of table %s", item.kind, item.table_id)

    async def _send(self, item: OutboxItem) -> int | None:
        builder = self.builders.get(item.kind)
        if builder is None:
            log.warning("no builder for %s posts: dropping post %s", item.kind, item.id)
            return None
        built = await builder(item)
        if built is None:
            return None
        channel_id, kwargs = built
        channel = await self.publisher.channel(channel_id)
        if item.attempts:
            # An earlier try may have reached Discord longer ago than its nonce is kept.
            found = await self._find(channel, item, kwargs)
            if found is not None:
                log.info("the %s post of table %s was there already", item.kind, item.table_id)
                return found
        message = await send_with_retry(channel, {**kwargs, "nonce": item.nonce})
        return int(message.id)

    async def _find(self, channel: Any, item: OutboxItem, kwargs: dict[str, Any]) -> int | None:
        bot = self.publisher.bot
        if bot is None or bot.user is None:
            return None
        since = datetime.datetime.fromtimestamp(item.created_at - CLOCK_SLACK, datetime.UTC)
        async for message in channel.history(
            limit=HISTORY_SCAN, after=discord.Object(discord.utils.time_snowflake(since))
        ):
            if same_post(message, bot.user.id, kwargs):
                return int(message.id)
        return None
