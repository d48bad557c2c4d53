"""Which tables are live in memory, and the per-table structures that forget the others.

A process serves tables for months; every structure keyed by a table (the store's cache and
locks, the publisher's locks and boards, the desk's game map, the open hands) would otherwise
gain one entry per table ever seen. One :class:`TableMemory` per service decides when a table
stops being live, and every such structure is a :class:`PerTable` or :class:`KeyedLocks`
registered with it, so the decision is made once and applied everywhere:

* a table that **finished** (or was abandoned) is released ``grace`` seconds after its end
  (the last prompts and the results post still read it);
* a table nobody **touched** for ``idle`` seconds is released (a table in play is re-read from
  storage when someone comes back; the open hands' tokens expired long before).

Released means each registered part drops its entries for the table. A lock that is held (or
waited for) is never dropped (two coroutines would then hold two different locks for one
table); its table is kept and looked at again later. There is no background task: the check
runs on every :meth:`TableMemory.touch`, and costs O(1) per released table.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, Protocol, TypeVar, overload

#: Seconds without any touch after which a table is released.
IDLE_SECONDS = 20 * 60.0
#: Seconds a finished table stays after its end (its last prompts and results still read it).
OVER_GRACE = 60.0

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Releasable(Protocol):
    """A per-table structure: drops a table's entries when told."""

    def release(self, table_id: int) -> bool:
        """Drop everything of ``table_id``; False if something must stay for now (a held
        lock): the memory asks again later."""
        ...


class _Noting(Protocol):
    def note(self, table_id: int) -> None: ...


class TableMemory:
    """Tracks when each table was last used and releases the tables that are no longer live
    from every registered part. ``now`` is the clock (seconds)."""

    def __init__(
        self,
        now: Callable[[], float],
        *,
        idle: float = IDLE_SECONDS,
        grace: float = OVER_GRACE,
    ) -> None:
        self._now = now
        self.idle = idle
        self.grace = grace
        #: table id -> last touch, oldest first (a touch moves the table to the end).
        self._seen: OrderedDict[int, float] = OrderedDict()
        #: table id -> when it is released (finished tables), in order of their ends.
        self._over: OrderedDict[int, float] = OrderedDict()
        self._parts: list[Releasable] = []

    def register(self, *parts: Releasable) -> None:
        """Release ``parts``' entries together with the tables (each part once)."""
        for part in parts:
            if not any(part is known for known in self._parts):
                self._parts.append(part)
                attach = getattr(part, "attach", None)
                if attach is not None:
                    attach(self)

    @property
    def parts(self) -> tuple[Releasable, ...]:
        """The registered parts."""
        return tuple(self._parts)

    def touch(self, table_id: int) -> None:
        """``table_id`` is in use now; release the tables whose time has come."""
        now = self._now()
        if table_id not in self._over:  # a finished table goes when its grace ends
            self._seen[table_id] = now
            self._seen.move_to_end(table_id)
        self.sweep(now)

    def note(self, table_id: int) -> None:
        """A part keeps something of ``table_id``: follow the table if it is not followed yet
        (so that entry is released when the table idles, at the latest)."""
        if table_id not in self._seen and table_id not in self._over:
            self._seen[table_id] = self._now()

    def over(self, table_id: int) -> None:
        """``table_id`` finished or was abandoned: release it after the grace period."""
        now = self._now()
        self._over.pop(table_id, None)
        self._over[table_id] = now + self.grace
        self._seen.pop(table_id, None)

    def is_over(self, table_id: int) -> bool:
        """Whether ``table_id`` ended (and is in its grace period)."""
        return table_id in self._over

    def sweep(self, now: float | None = None) -> list[int]:
        """Release the finished tables past their grace and the idle ones; return them."""
        now = self._now() if now is None else now
        released: list[int] = []
        while self._over:
            table_id, when = next(iter(self._over.items()))
            if when > now:
                break
            del self._over[table_id]
            if self.release(table_id):
                released.append(table_id)
        while self._seen:
            table_id, when = next(iter(self._seen.items()))
            if now - when < self.idle:
                break
            if self.release(table_id):
                released.append(table_id)
        return released

    def release(self, table_id: int) -> bool:
        """Drop ``table_id`` from every part now; if a part must keep something (a held
        lock) the table counts as touched now and is tried again later."""
        done = True
        for part in self._parts:
            done = part.release(table_id) and done
        self._over.pop(table_id, None)
        if done:
            self._seen.pop(table_id, None)
        else:
            self._seen[table_id] = self._now()
            self._seen.move_to_end(table_id)
        return done

    def tracked(self) -> int:
        """How many tables the memory follows (live or in their grace)."""
        return len(self._seen) + len(self._over)


class PerTable(Generic[V]):
    """A dict from table id to a value, emptied of a table when its memory releases it."""

    def __init__(self) -> None:
        self._items: dict[int, V] = {}
        self._memory: _Noting | None = None

    def attach(self, memory: _Noting) -> None:
        """Tell ``memory`` of every table this dict gains an entry for."""
        self._memory = memory

    @overload
    def get(self, table_id: int) -> V | None: ...

    @overload
    def get(self, table_id: int, default: V) -> V: ...

    def get(self, table_id: int, default: V | None = None) -> V | None:
        """The table's value, or ``default``."""
        return self._items.get(table_id, default)

    def setdefault(self, table_id: int, value: V) -> V:
        """The table's value, set to ``value`` if it had none."""
        if table_id not in self._items:
            self[table_id] = value
        return self._items[table_id]

    def pop(self, table_id: int, default: V | None = None) -> V | None:
        """Remove and return the table's value."""
        return self._items.pop(table_id, default)

    def __getitem__(self, table_id: int) -> V:
        return self._items[table_id]

    def __setitem__(self, table_id: int, value: V) -> None:
        if self._memory is not None and table_id not in self._items:
            self._memory.note(table_id)
        self._items[table_id] = value

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._items

    def __iter__(self) -> Iterator[int]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def items(self) -> Iterator[tuple[int, V]]:
        """The (table id, value) pairs."""
        return iter(list(self._items.items()))

    def values(self) -> Iterator[V]:
        """The values."""
        return iter(list(self._items.values()))

    def clear(self) -> None:
        """Forget every table."""
        self._items.clear()

    def release(self, table_id: int) -> bool:
        """Forget the table."""
        self._items.pop(table_id, None)
        return True


class KeyedLocks(Generic[K]):
    """One :class:`asyncio.Lock` per key (a table id, or a key whose table ``table_of``
    tells), dropped with its table unless it is held or waited for."""

    def __init__(self, table_of: Callable[[K], int] | None = None) -> None:
        self._table_of = table_of
        self._locks: dict[K, asyncio.Lock] = {}
        #: table id -> its keys (only when keys are not table ids).
        self._keys: dict[int, set[K]] = {}
        self._memory: _Noting | None = None

    def attach(self, memory: _Noting) -> None:
        """Tell ``memory`` of every table this gains a lock for."""
        self._memory = memory

    def __call__(self, key: K) -> asyncio.Lock:
        """The lock of ``key`` (made on first use)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
            if self._table_of is None:
                table_id = int(key)  # type: ignore[call-overload]
            else:
                table_id = self._table_of(key)
                self._keys.setdefault(table_id, set()).add(key)
            if self._memory is not None:
                self._memory.note(table_id)
        return lock

    def __len__(self) -> int:
        return len(self._locks)

    def busy(self) -> bool:
        """Whether some lock is held."""
        return any(lock.locked() for lock in self._locks.values())

    def release(self, table_id: int) -> bool:
        """Drop the table's locks that nobody holds or waits for; False if one stays."""
        keys: set[K] | list[K]
        if self._table_of is None:
            keys = [k for k in (table_id,) if k in self._locks]
        else:
            keys = self._keys.pop(table_id, set())
        kept: set[K] = set()
        for key in keys:
            lock = self._locks[key]
            if lock.locked() or getattr(lock, "_waiters", None):
                kept.add(key)
            else:
                del self._locks[key]
        if kept and self._table_of is not None:
            self._keys[table_id] = kept
        return not kept
