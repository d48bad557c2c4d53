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

#: Boards and turn digests are not rows of this outbox: a table's change stores its version,
#: and ``version > board_version`` in the same row *is* the intent to post its board (written
#: in the change's own transaction). The front end posts it with :func:`board_nonce` and
#: records it (``board_version``) only after Discord took it; :class:`BoardLease` lets one
#: process at a time post a table's boards.

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


@dataclass(frozen=True, slots=True)
class BoardLease:
    """Who posts a table's boards, until when (a time of the service's clock), and the
    digest message that the post under way replaces (a re-post at the bottom that pings);
    ``owner`` None: nobody."""

    owner: str | None
    until: float | None
    replaces: int | None = None

    def held_by_other(self, owner: str, now: float) -> bool:
        """Whether another owner's lease still runs at ``now``."""
        return self.owner not in (None, owner) and (self.until or 0.0) >= now


def board_nonce(table_id: int, version: int) -> str:
    """The nonce of the message that first shows the board of ``version`` (at most Discord's
    25 characters): every process and every try sends the same one, so Discord makes one
    message of them all within its nonce window."""
    return f"b{table_id}.{version}"
