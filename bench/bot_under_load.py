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
    serve = app._serve

    async def serve_with_probe(*args: Any, **kwargs: Any) -> None:
        task = asyncio.create_task(probe(samples))
        try:
            await serve(*args, **kwargs)
        finally:
            task.cancel()
            path = os.environ.get("BENCH_LAG_FILE")
            if path:
                Path(path).write_text(json.dumps(samples), encoding="utf-8")  # noqa: ASYNC240

    app._serve = serve_with_probe  # type: ignore[assignment]
    from bot.cli import main as cli_main

    return cli_main(["run", *sys.argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
