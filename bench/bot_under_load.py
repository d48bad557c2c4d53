"""The real bot process (``poeppel run``) with an event-loop lag probe, for ``bench.discord_load``.

Run as a script, ``python -P bench/bot_under_load.py`` (``-P``: ``bench/`` is not put first on
the path), with the code under test first on ``PYTHONPATH`` (this branch, or a checkout of an
older commit for a "before" figure): it imports nothing of ``bench``, so it works against any
version of the bot.

``BENCH_LAG_FILE``: where to write the lag samples (JSON ``[[wall time, lag seconds], ...]``)
when the bot ends (SIGTERM). ``BENCH_BOT_LEVEL``: the level of the lobby's "Add bot" button in
versions whose front desk had a fixed level (``FrontDesk.bot_level``); newer versions take the
level from the ``/tock new`` option instead.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# Only light imports at the top: the workers the bot spawns import this script again (as
# ``__mp_main__``), and an asyncio imported here would add ~4 MB to each of them, which the
# real ``poeppel`` script does not.

#: How often the probe wakes: the lag is how late each wake-up comes.
PROBE_INTERVAL = 0.01


async def probe(samples: list[tuple[float, float]]) -> None:
    """Sleep ``PROBE_INTERVAL`` again and again, noting how late each wake-up is."""
    import asyncio
    import time

    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(PROBE_INTERVAL)
        samples.append((time.time(), loop.time() - before - PROBE_INTERVAL))


#: The service's calls that store a change a click asked for (timed for ``BENCH_COMMIT_FILE``).
COMMITS = ("act", "exchange_pick")


def _interaction_id() -> int | None:
    """The id of the interaction whose handling called the service (a frame of its task holds
    it as ``interaction``); None for the bot's own work (turn clock, deliveries)."""
    frame = sys._getframe(2)
    while frame is not None:
        found = frame.f_locals.get("interaction")
        if found is not None and hasattr(found, "id") and hasattr(found, "followup"):
            return int(found.id)
        frame = frame.f_back  # type: ignore[assignment]
    return None


def time_commits(commits: dict[int, float]) -> None:
    """Note, per interaction, when the service stored the change it asked for (wall time)."""
    import time

    try:
        from bot.service.facade import TableService
    except ImportError:  # an older version of the bot: no answer-after-commit figure
        return
    for name in COMMITS:
        call = getattr(TableService, name, None)
        if call is None:
            continue

        def timed(call: Any) -> Any:
            async def stored(*args: Any, **kwargs: Any) -> Any:
                result = await call(*args, **kwargs)
                interaction = _interaction_id()
                if interaction is not None:
                    commits.setdefault(interaction, time.time())
                return result

            return stored

        setattr(TableService, name, timed(call))


def dump_tasks(path: str) -> None:
    """Write what every task of the event loop awaits, one line a task, its chain of
    coroutines down to the future (``BENCH_TASKS_FILE``, on SIGUSR1: where clicks wait)."""
    import asyncio
    from pathlib import Path

    lines = []
    for task in asyncio.all_tasks():
        coro: Any = task.get_coro()
        chain = []
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                name = frame.f_code.co_filename.rsplit("/", 1)[-1]
                chain.append(f"{name}:{frame.f_lineno} {frame.f_code.co_name}")
            awaited = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            if awaited is None:
                chain.append(type(coro).__name__)
            coro = awaited
        lines.append(" > ".join(chain))
    Path(path).write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")


def main() -> int:
    import asyncio
    import json
    from pathlib import Path

    import bot.discord_ui.app as app
    import bot.discord_ui.frontdesk as frontdesk

    level = os.environ.get("BENCH_BOT_LEVEL")
    if level and hasattr(frontdesk, "DEFAULT_BOT_LEVEL"):
        frontdesk.DEFAULT_BOT_LEVEL = level
    samples: list[tuple[float, float]] = []
    commits: dict[int, float] = {}
    if os.environ.get("BENCH_COMMIT_FILE"):
        time_commits(commits)
    serve = app._serve

    async def serve_with_probe(*args: Any, **kwargs: Any) -> None:
        task = asyncio.create_task(probe(samples))
        tasks_file = os.environ.get("BENCH_TASKS_FILE")
        if tasks_file:
            import signal

            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGUSR1, dump_tasks, tasks_file)
        try:
            await serve(*args, **kwargs)
        finally:
            task.cancel()
            path = os.environ.get("BENCH_LAG_FILE")
            if path:
                Path(path).write_text(json.dumps(samples), encoding="utf-8")  # noqa: ASYNC240
            path = os.environ.get("BENCH_COMMIT_FILE")
            if path:
                Path(path).write_text(json.dumps(commits), encoding="utf-8")  # noqa: ASYNC240

    app._serve = serve_with_probe  # type: ignore[assignment]
    from bot.cli import main as cli_main

    return cli_main(["run", *sys.argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
