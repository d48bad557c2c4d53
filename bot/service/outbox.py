"""The outbox, as the front ends see it: the posts owed about tables, one owner at a time.

Intents are stored by the parts whose change causes them, in that change's transaction (the
results by :class:`bot.service.results.Results`); this part hands the pending ones of this
process's guilds to the front end, leases each to one process while it is being sent (two
processes overlap during a rolling restart), and marks it done once Discord took it.

A table's boards and turn digests are owed by the table row itself (its version ahead of the
board recorded); :meth:`Outbox.claim_board` leases their posting to one process at a time.
"""

from __future__ import annotations

import os
import socket
import uuid
import weakref
from collections.abc import Callable, Sequence

from bot.model.clock import Clock
from bot.model.outbox import BoardLease, Intent, OutboxItem
from bot.storage.base import Storage

#: Seconds a process holds a post it is sending (or the posting of a table's boards): longer
#: than a send takes, so two processes rarely send one post at the same time (and if they do,
#: Discord's nonce check makes one message of both); short, because a killed process's lease
#: keeps its successor waiting: shorter than the board retry tick (15 s), so that a board a
#: kill left with two controls is repaired within one tick.
LEASE_SECONDS = 10.0

#: The outboxes alive in this process (several services share a process in tests).
_ALIVE: weakref.WeakSet[Outbox] = weakref.WeakSet()


def gone(owner: str) -> bool:
    """Whether the lease owner ``owner`` is provably dead: a process of this machine that no
    longer runs (killed), or an earlier process with this process's id (a restarted container
    whose bot runs as process 1). Unknown owners (other machines) are taken as alive."""
    host, _sep, rest = owner.rpartition(":")
    pid_text = rest.split("-", 1)[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return all(outbox.owner != owner for outbox in _ALIVE)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs (as another user)
        return False
    return False


class Outbox:
    """Pending posts of this process's guilds, leased one process at a time."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self._storage = storage
        self._clock = clock
        #: This process, as the lease owner (a restarted process is another owner: it waits
        #: for the lease of its killed predecessor to run out, or finds the post done; the
        #: boards' lease of a predecessor on this machine that is gone it takes over at once).
        self.owner = f"{socket.gethostname()}:{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.lease_seconds = LEASE_SECONDS
        _ALIVE.add(self)

    async def add(self, intents: Sequence[Intent]) -> None:
        """Store posts owed that no table change carries (one per key, ever)."""
        await self._storage.add_intents(intents)

    async def pending(self, owns_guild: Callable[[int], bool]) -> list[OutboxItem]:
        """The posts not done yet of the guilds ``owns_guild`` accepts, oldest first."""
        return [i for i in await self._storage.pending_posts() if owns_guild(i.guild_id)]

    async def claim(self, item: OutboxItem) -> bool:
        """Take ``item`` for this process; False when it is done or another process has it."""
        now = self._clock.now()
        return await self._storage.claim_post(item.id, self.owner, now, now + self.lease_seconds)

    async def release(self, item: OutboxItem) -> None:
        """``item`` did not go out this time: any process may try it at once."""
        await self._storage.release_post(item.id, self.owner)

    async def done(self, item: OutboxItem, message_id: int | None) -> None:
        """Discord took ``item`` as ``message_id`` (None: it never will): not sent again."""
        await self._storage.post_done(item.id, message_id)

    async def claim_board(self, table_id: int) -> bool:
        """Take (or renew) the posting of the table's boards for this process; False while
        another process holds it."""
        now = self._clock.now()
        until = now + self.lease_seconds
        if await self._storage.claim_board_post(table_id, self.owner, now, until):
            return True
        lease = await self.board_lease(table_id)
        if lease.owner is None or not gone(lease.owner):
            return False
        # Its holder was killed (a restart on this machine): its lease is void. Taken only if
        # nobody took it meanwhile (a new holder's lease ends later than the dead one's).
        void = (lease.until or now) + 1.0
        return await self._storage.claim_board_post(table_id, self.owner, void, until)

    async def replacing_board(self, table_id: int, message_id: int | None) -> None:
        """Note that this process's post replaces the digest ``message_id`` (a process that
        finds the post in the thread after a crash deletes that digest)."""
        await self._storage.replacing_board(table_id, self.owner, message_id)

    async def release_board(self, table_id: int) -> None:
        """This process finished posting the table's board."""
        await self._storage.release_board_post(table_id, self.owner)

    async def board_lease(self, table_id: int) -> BoardLease:
        """Who posts the table's boards now (``held_by_other`` tells whether it is another
        process whose lease still runs)."""
        lease = await self._storage.board_post(table_id)
        return lease if lease is not None else BoardLease(None, None)

    def held_by_other(self, lease: BoardLease) -> bool:
        """Whether ``lease`` belongs to another process that is alive and its lease still
        runs (a killed predecessor's on this machine does not: see :meth:`claim_board`)."""
        held = lease.held_by_other(self.owner, self._clock.now())
        return held and not (lease.owner is not None and gone(lease.owner))

    def now(self) -> float:
        """The time leases are measured in."""
        return self._clock.now()
