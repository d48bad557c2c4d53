"""What the bot is to post about a table: the rows of the outbox (issue 29).

An :class:`Intent` is stored in the transaction of the change that causes it (a result, a
reminder), so a crash can never lose a post nor forget that one is owed. The front end sends
each pending :class:`OutboxItem` with its :attr:`OutboxItem.nonce` (Discord then refuses to
make a second message for a re-send within a few minutes) and marks it done only once Discord
took the message; after a longer gap it first looks for the message in the channel.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

#: The kinds of posts the outbox carries, and where each goes.
RESULTS = "results"  # the results post (standings, image, record) in the table's thread
NOTICE = "notice"  # the short line in the table's channel that a game finished
INVITE = "invite"  # the rematch invitation in the new table's thread


@dataclass(frozen=True, slots=True)
class Intent:
    """A post owed about a table, before it is stored. ``key`` names it once and for all:
    storing a second intent with the same key changes nothing."""

    table_id: int
    guild_id: int
    kind: str
    key: str
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """A stored intent not yet marked done."""

    id: int
    table_id: int
    guild_id: int
    kind: str
    key: str
    payload: dict[str, Any]
    created_at: float
    #: How many tries may have reached Discord before this one.
    attempts: int

    @property
    def nonce(self) -> str:
        """The message nonce of this post (at most Discord's 25 characters): the same for
        every try, so that Discord returns the first message instead of making another."""
        return f"o{self.id}.{zlib.crc32(self.key.encode()):08x}"
