"""Boards drawn in worker processes, so that the process answering Discord never runs Pillow.

A :class:`RenderPool` runs the :mod:`renderer` functions in a few worker processes, as the
bots' searches already run (:mod:`bot.bots.pool`): an image costs milliseconds of CPU, and
drawn in the event loop's process (even in a thread) it holds the GIL that acknowledgements
wait for. The renderer is pure and deterministic, so a worker's PNG is byte-identical to the
one the process would have drawn (``tests/bot/discord_ui/test_render_pool.py``).

* **Warm workers, lean at rest.** Each worker imports the renderer and fills its small
  caches once (:func:`renderer.warm_up`, without the Carcassonne tile masters, drawn on
  first use) when it starts, at a lower priority (``nice``) than the process answering
  Discord and a higher one than the bots' searches. It imports only what it runs
  (:mod:`bot.discord_ui.render_worker`: no asyncio).
* **No stale queue.** At most two images per worker are handed to the workers at once (one
  being drawn, the next ready, so that a worker never idles while the busy event loop gets
  round to handing it more); the others wait here in the order asked. A request with a
  ``key`` (a table) that is still waiting when a newer one with the same key arrives is
  dropped: only a table's newest board is drawn, so the queue cannot grow beyond one image
  per table however fast the tables play.
* **Answers first.** A request marked ``urgent`` (the image of a private answer: the hand,
  a card's moves, a tile's figure spots, which a person who clicked waits for) goes before
  the boards asked for less than :data:`URGENT_LEAD` seconds before it, so a person's answer
  does not wait behind a burst of boards; a board waits at most that much longer, however
  many answers come (no starvation when the workers are saturated).
* **Sizing.** :func:`render_workers` gives the default size: the machine's cores less one for
  the event loop and less the bots' dedicated workers, at least one.
* **A slow lane.** The game's animated summary takes the better part of a second of CPU (a
  frame per move); drawn by the boards' worker it held every table's board up that long, each
  time a game ended (at forty busy tables, a game ends every two seconds). It is drawn by a
  pool of its own (:func:`slow_lane`): one worker at the bots' low priority, started when such
  an image is asked for and stopped after a minute without one (a bot at rest keeps no
  process for it).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import multiprocessing
import os
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.bots.worker import ready
from bot.discord_ui.render_worker import call, start_render_worker

log = logging.getLogger(__name__)

#: How far ahead of the boards an urgent image (a private answer) goes, in seconds of asking.
URGENT_LEAD = 0.25


class Stale(Exception):
    """The image was not drawn: a newer one with the same key was asked for meanwhile."""


#: Seconds without an image after which the slow lane's worker stops.
SLOW_LANE_IDLE = 60.0


def slow_lane(nice: int, idle_after: float = SLOW_LANE_IDLE) -> RenderPool:
    """The pool of the long images (see the module): one worker at ``nice``, started on
    demand and stopped after ``idle_after`` seconds without an image."""
    return RenderPool(1, nice=nice, idle_after=idle_after)


def render_workers(cores: int, bot_workers: int | None = None) -> int:
    """The default number of render workers on ``cores`` cores.

    One core is left to the event loop's process; ``bot_workers`` set explicitly (searches at
    full speed on cores of their own) takes its cores too. The default bot pool, one niced
    search per core, yields to the renderer and is not subtracted.
    """
    return max(1, cores - 1 - (bot_workers or 0))


# --- in the bot process ---------------------------------------------------------------------


class RenderPool:
    """Runs renderer functions in ``workers`` processes (``async with`` or start/close).

    ``nice`` lowers the workers' priority. ``executor``: a ready executor instead of the
    worker processes (tests use a thread pool to control the timing).
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        nice: int = 5,
        executor: Executor | None = None,
        idle_after: float | None = None,
    ):
        self.workers = max(1, workers)
        self.nice = nice
        #: Workers started on demand and stopped after this many seconds without an image
        #: (the slow lane); None: started with the pool, kept while it runs.
        self.idle_after = idle_after
        self._running = False
        self._drawing = 0
        self._idle_timer: asyncio.TimerHandle | None = None
        self._executor: Executor | None = executor
        self._own_executor = executor is None
        #: Images handed to the workers at most at once (see the module's docstring).
        self.depth = 2 * self.workers
        self._free = self.depth
        #: Requests waiting for a worker: (when asked, less the lead of an urgent one; ticket;
        #: wake-up), the smallest first.
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        #: The newest request of each key: an older one still waiting is dropped.
        self._newest: dict[Hashable, int] = {}
        self._tickets = 0
        #: How many requests were dropped as stale (for benches and logs).
        self.skipped = 0

    def _new_executor(self) -> ProcessPoolExecutor:
        # "spawn": a fresh interpreter, not a fork of a process with an event loop, threads
        # and sockets; its parent is this process, which the worker watches.
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_render_worker,
            initargs=(os.getpid(), self.nice),
        )

    async def start(self) -> None:
        """Start every worker now (an interpreter, Pillow and the warm-up take a second);
        with ``idle_after``, when the first image is asked for."""
        self._running = True
        if self.idle_after is not None and self._own_executor:
            return
        if self._executor is None:
            self._executor = self._new_executor()
        if self._own_executor:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._executor, ready) for _ in range(self.workers))
            )

    async def close(self) -> None:
        """Stop the workers; images still waiting are refused."""
        self._running = False
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        executor, self._executor = self._executor, None
        for _, _, waiter in self._waiting:
            if not waiter.done():
                waiter.cancel()
        self._waiting.clear()
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)

    async def __aenter__(self) -> RenderPool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (for monitoring and tests)."""
        return list((getattr(self._executor, "_processes", None) or {}).keys())

    async def run(
        self,
        function: Callable[..., bytes],
        *args: Any,
        key: Hashable | None = None,
        urgent: bool = False,
        **kwargs: Any,
    ) -> bytes:
        """``function(*args, **kwargs)`` drawn in a worker; its PNG bytes.

        ``function`` is a module-level renderer function (it is pickled by name), the
        arguments plain data. Raises :class:`Stale` when a newer request with the same
        ``key`` arrived while this one waited for a worker. ``urgent``: drawn before every
        request that is not (a person waits for it).
        """
        ticket = self._tickets = self._tickets + 1
        if key is not None:
            self._newest[key] = ticket
        await self._turn(ticket, urgent)
        try:
            if key is not None and self._newest.get(key) != ticket:
                self.skipped += 1
                raise Stale(key)
            return await self._draw(function, args, kwargs)
        finally:
            if key is not None and self._newest.get(key) == ticket:
                del self._newest[key]
            self._release()

    async def _draw(
        self, function: Callable[..., bytes], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> bytes:
        loop = asyncio.get_running_loop()
        if self.idle_after is not None and self._running:
            # On demand: the workers start for this image and stop after a quiet while.
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            if self._executor is None:
                self._executor = self._new_executor()
        self._drawing += 1
        try:
            for attempt in range(2):
                executor = self._executor
                if executor is None:
                    raise RuntimeError("the render pool is not running")
                try:
                    return await loop.run_in_executor(executor, call, function, args, kwargs)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): replace the pool and draw again.
                    log.error("a render worker died; starting new workers")
                    if self._executor is executor:
                        self._executor = self._new_executor()
                        executor.shutdown(wait=False, cancel_futures=True)
                    if attempt:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self._drawing -= 1
            if self.idle_after is not None and self._drawing == 0 and self._running:
                self._idle_timer = loop.call_later(self.idle_after, self._stop_idle)

    def _stop_idle(self) -> None:
        """Stop the workers of an on-demand pool that has been idle (see :meth:`start`)."""
        self._idle_timer = None
        if self._drawing:
            return  # an image came meanwhile: the timer starts again after it
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def _turn(self, ticket: int, urgent: bool) -> None:
        """Wait for a free worker, in the order asked, urgent requests ahead by their lead."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        entry = (loop.time() - (URGENT_LEAD if urgent else 0.0), ticket, waiter)
        heapq.heappush(self._waiting, entry)
        try:
            await waiter
        except asyncio.CancelledError:
            if entry in self._waiting:
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            elif waiter.done() and not waiter.cancelled():
                self._release()  # the turn was handed over just as the caller gave up
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, waiter = heapq.heappop(self._waiting)
            if not waiter.done():
                waiter.set_result(None)  # the turn passes on; _free stays taken
                return
        self._free += 1
