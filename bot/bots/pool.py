"""Bot moves chosen in worker processes, so that no search holds the event loop's GIL.

A :class:`BotPool` is the table service's bot chooser in the Discord process. A bot works
from the view of its seat and a seed (see :mod:`engine.bots`); both are plain data, so they
pickle cheaply to a worker, which answers with the move text: the same call, with the same
result, as the in-process chooser of :mod:`bot.bots.choosers`.

* **Two lanes.** ``hard`` searches run in ``workers`` processes (one per core by default);
  ``easy`` and ``normal`` bots, which answer in milliseconds, have a worker of their own, so
  they never wait behind a search.
* **Fair sharing.** A table asks for one bot move at a time, and the searches wait for a free
  worker in the order they were asked: with many tables thinking at once, every table's bot
  gets its turn in a round, and none waits behind another table's whole game.
* **CPU time.** The engine's search budget is CPU time (``engine.bots.common.Budget``: the
  searching thread's, with a wall-clock stop at a few times the budget), and a worker does
  nothing but search: a search gets its budget of computing even when the machine is busy,
  so a loaded server makes its bots slower, not weaker. The workers run at a lower priority
  (``nice``) than the process that answers Discord, which so never waits for them.
* **Lean at rest.** The quick worker starts with the pool; the search workers start with the
  first search and stop after :data:`SEARCH_IDLE_SECONDS` without one. A worker imports only
  :mod:`bot.bots.worker` and the engine (no asyncio).
* **Clean ends.** :meth:`BotPool.close` stops the workers (the process's shutdown path calls
  it); a worker whose parent died (SIGKILL, a crash) notices within a fraction of a second and
  exits, so no orphan is left behind. A worker that died is replaced, and its move is played
  again in a fresh worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.bots.choosers import SLOW_LEVELS, engine_move, random_chooser
from bot.bots.worker import ready, search_hint, start_bot_worker
from engine.bots.hints import Hint

log = logging.getLogger(__name__)

#: Seconds without a search after which the search workers are stopped (started again by the
#: next search): a bot process at rest holds no search worker (issue #37).
SEARCH_IDLE_SECONDS = 300.0


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


# --- in the bot process ---------------------------------------------------------------------


class BotPool:
    """Chooses bot moves in worker processes; a table service's ``choose_bot_move``.

    ``workers`` search processes (default :func:`machine_cores`) for the levels in
    :data:`bot.bots.SLOW_LEVELS`, one more for the quick levels. ``time_budget`` is the CPU
    seconds a move may take (as :func:`bot.bots.engine_chooser`'s); ``iterations`` caps the
    sampled worlds of a search (tests and benches: deterministic moves). ``nice`` lowers the
    workers' priority. Call :meth:`start` before the first move and :meth:`close` at the end
    (or use ``async with``).
    """

    #: The levels whose moves may take long: the service posts what came before them first.
    slow_levels: frozenset[str] = SLOW_LEVELS

    def __init__(
        self,
        workers: int | None = None,
        *,
        time_budget: float = 1.0,
        iterations: int | None = None,
        nice: int = 10,
    ) -> None:
        self.workers = max(1, workers if workers is not None else machine_cores())
        self.time_budget = time_budget
        self.iterations = iterations
        self.nice = nice
        self._search: ProcessPoolExecutor | None = None
        self._quick: ProcessPoolExecutor | None = None
        #: The manager threads of executors replaced after a worker died (joined at close).
        self._retired: list[threading.Thread] = []
        self._free = self.workers
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._running = False
        self._idle_timer: asyncio.TimerHandle | None = None

    def _executor(self, workers: int) -> ProcessPoolExecutor:
        # "spawn": a fresh interpreter, not a fork of a process with an event loop, threads
        # and sockets; its parent is this process, which the worker watches.
        return ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_bot_worker,
            initargs=(os.getpid(), self.nice),
        )

    async def start(self, *, searches: bool = False) -> None:
        """Start the quick worker now (an interpreter and the engine take a moment to load).

        The search workers start with the first search that needs them (and stop after
        :data:`SEARCH_IDLE_SECONDS` without one): no hard bot, no search worker in memory.
        ``searches``: start them all now too (tests, benches timing the first search).
        """
        self._running = True
        self._quick = self._quick or self._executor(1)
        loop = asyncio.get_running_loop()
        started = [loop.run_in_executor(self._quick, ready)]
        if searches:
            search = self._search_executor()
            started += [loop.run_in_executor(search, ready) for _ in range(self.workers)]
        await asyncio.gather(*started)

    def _search_executor(self) -> ProcessPoolExecutor:
        """The search workers' executor, made when first needed. A "spawn" executor starts a
        worker for a task only when none is idle, so searches start as many as they use."""
        if not self._running:
            raise RuntimeError("the bot pool is not running")
        if self._search is None:
            self._search = self._executor(self.workers)
        return self._search

    def _retire_idle_searches(self) -> None:
        """Stop the search workers if no search ran or waits since the timer was set."""
        self._idle_timer = None
        search, idle = self._search, self._free == self.workers and not self._waiting
        if search is not None and idle:
            self._search = None
            manager = _manager(search)
            self._retired = [m for m in self._retired if m.is_alive()]
            if manager is not None:
                self._retired.append(manager)  # see close()
            search.shutdown(wait=False)  # the idle workers exit; nothing was pending

    async def close(self) -> None:
        """Stop the workers: a search under way is abandoned, waiting moves are refused."""
        self._running = False
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        executors = [e for e in (self._search, self._quick) if e is not None]
        self._search = self._quick = None
        # ``shutdown(wait=False)`` forgets the executor's manager thread, which goes on closing
        # the queues and its wake-up pipe: it is joined here (with those of executors replaced
        # earlier), for one still running at exit races concurrent.futures' exit hook, which
        # writes to that pipe ("Exception ignored … OSError: Bad file descriptor").
        managers = [*self._retired, *(m for e in executors if (m := _manager(e)) is not None)]
        self._retired = []
        for waiter in self._waiting:
            if not waiter.done():
                waiter.cancel()
        self._waiting.clear()
        for executor in executors:
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a search under way would finish its budget first
                with contextlib.suppress(Exception):
                    process.terminate()
        await asyncio.to_thread(_join, executors, managers)

    async def __aenter__(self) -> BotPool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (for monitoring and tests)."""
        pids: list[int] = []
        for executor in (self._search, self._quick):
            if executor is not None:
                pids.extend((getattr(executor, "_processes", None) or {}).keys())
        return pids

    async def __call__(
        self, game: str, view: Mapping[str, Any], level: str, legal: Sequence[str], seed: int
    ) -> str:
        """The bot's move (a :data:`bot.bots.BotChooser`, awaited)."""
        args = (game, dict(view), level, list(legal), seed, self.time_budget, self.iterations)
        if level not in self.slow_levels:
            return await self._run(False, args)
        await self._turn()
        try:
            return await self._run(True, args)
        finally:
            self._release()

    async def _run(self, slow: bool, args: tuple[Any, ...]) -> str:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            executor = self._search_executor() if slow else self._quick
            if executor is None:
                raise RuntimeError("the bot pool is not running")
            try:
                return str(await loop.run_in_executor(executor, engine_move, *args))
            except BrokenProcessPool:
                # A worker died (killed, out of memory): replace the pool and ask again.
                log.error("a bot worker died; starting new workers")
                self._replace(executor)
                if attempt:
                    break
        game, view, level, legal, seed = args[:5]
        return random_chooser(game, view, level, legal, seed)

    async def hint(self, game: str, view: Mapping[str, Any], seed: int, time_budget: float) -> Hint:
        """A learner's hint (:func:`engine.bots.hints.hint`: the ``hard`` move and its
        reasons), searched in a search worker in its turn with the bots' searches, so that a
        second of search never holds this process's interpreter (and its event loop)."""
        args = (game, dict(view), seed, time_budget, self.iterations)
        await self._turn()
        try:
            loop = asyncio.get_running_loop()
            for _attempt in range(2):
                executor = self._search_executor()
                try:
                    found: Hint = await loop.run_in_executor(executor, search_hint, *args)
                    return found
                except BrokenProcessPool:
                    log.error("a bot worker died; starting new workers")
                    self._replace(executor)
            return await asyncio.to_thread(search_hint, *args)  # no worker lived: search here
        finally:
            self._release()

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        manager = _manager(broken)
        self._retired = [m for m in self._retired if m.is_alive()]
        if manager is not None:
            self._retired.append(manager)  # see close()
        broken.shutdown(wait=False, cancel_futures=True)
        if broken is self._search:
            self._search = self._executor(self.workers)
        elif broken is self._quick:
            self._quick = self._executor(1)

    async def _turn(self) -> None:
        """Wait for a free search worker, in the order the moves were asked."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # the worker was handed over just as we were cancelled
            raise

    def _release(self) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1
        if self._free == self.workers and self._search is not None and self._running:
            self._idle_timer = asyncio.get_running_loop().call_later(
                SEARCH_IDLE_SECONDS, self._retire_idle_searches
            )


def _manager(executor: ProcessPoolExecutor) -> threading.Thread | None:
    """The executor's manager thread (it closes the executor's pipes last), if started."""
    thread = getattr(executor, "_executor_manager_thread", None)
    return thread if isinstance(thread, threading.Thread) else None


def _join(executors: list[ProcessPoolExecutor], managers: list[threading.Thread]) -> None:
    for executor in executors:
        executor.shutdown(wait=True)
    for manager in managers:
        manager.join()
