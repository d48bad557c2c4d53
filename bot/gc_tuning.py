"""Garbage-collector settings for a long-running bot process.

CPython's cyclic collector stops the whole process while it runs. With the default threshold
(a young collection every 700 net allocations) a busy table service collects hundreds of
times a second, and every tenth of those also scans the middle generation; a full collection
walks every object alive, including the imported modules and the engines' precomputed tables,
which never become garbage. Those pauses were a large part of the tail latency of an act (see
``bench/service.py``). :func:`tune_gc` is called once after start-up by every entry point
(the Discord front end, ``poeppel play``, the bench):

* ``gc.freeze()`` moves everything alive after start-up (modules, engine tables, settings)
  into the permanent generation, which no collection scans again;
* a larger young threshold makes collections rarer; each is still short because the game
  states are mostly immutable trees with few reference cycles that die young.

Memory is not at risk: objects without cycles are freed by reference counting at once, and
the collector still runs, only less often.
"""

from __future__ import annotations

import gc

#: Net allocations between young collections (CPython's default is 700).
YOUNG_THRESHOLD = 20_000
#: Young collections per middle-generation collection, and middle per full (defaults 10, 10).
MIDDLE_THRESHOLD = 20
OLD_THRESHOLD = 20


def tune_gc(
    young: int = YOUNG_THRESHOLD, middle: int = MIDDLE_THRESHOLD, old: int = OLD_THRESHOLD
) -> tuple[int, int, int]:
    """Collect once, freeze what survived start-up, and set the thresholds.

    Call it after the imports, the engines and the storage are loaded and before serving
    requests. Returns the previous thresholds (for a test or a bench to restore them).
    """
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, middle, old)
    return previous


def untune_gc(thresholds: tuple[int, int, int]) -> None:
    """Undo :func:`tune_gc`: unfreeze and restore ``thresholds``."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)
