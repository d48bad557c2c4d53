"""How long after a move is stored its player gets the answer, with boards slow to draw.

    PYTHONPATH=. python -m bench.answer_delay [--moves 30] [--render 0.4]

Two people play Tock through their open hands against the fake Discord (the tests' world:
real service over SQLite, real renderer). Every board image takes ``--render`` seconds more to
draw. For each move or exchange pick made by a click: the time from the service storing it to
the clicked prompt's answer ("You played …") going out. Printed: count, median, max (ms).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.discord_ui import prompts, race_prompts
from bot.discord_ui.rendering import Renderer
from tests.bot.discord.conftest import running_world
from tests.bot.discord.driving import Stats, play_race_turn, to_act
from tests.bot.discord.test_lobby import start_for_two


def slowed(renderer: Renderer, seconds: float) -> Renderer:
    """``renderer`` whose board images take ``seconds`` longer (drawn off the event loop,
    as the render pool does)."""
    draw = renderer.render_board
    assert draw is not None

    def slow_board(*args: Any, **kwargs: Any) -> bytes:
        time.sleep(seconds)
        return draw(*args, **kwargs)

    return dataclasses.replace(renderer, render_board=slow_board)


async def measure(moves: int, render: float) -> list[float]:
    """The delays (seconds) from commit to answer of ``moves`` clicks."""
    delays: list[float] = []
    committed: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with running_world(Path(tmp), renderer=slowed(Renderer.load(), render)) as world:
            service = world.desk.service
            act, pick = service.act, service.exchange_pick

            async def timed_act(table: int, user: int, *args: Any, **kw: Any) -> Any:
                effects = await act(table, user, *args, **kw)
                committed.setdefault(user, time.monotonic())
                return effects

            async def timed_pick(table: int, user: int, *args: Any, **kw: Any) -> Any:
                effects = await pick(table, user, *args, **kw)
                committed.setdefault(user, time.monotonic())
                return effects

            edit = prompts.edit_prompt

            async def timed_edit(interaction: Any, *args: Any, **kw: Any) -> None:
                await edit(interaction, *args, **kw)
                started = committed.pop(interaction.user.id, None)
                if started is not None:
                    delays.append(time.monotonic() - started)

            service.act, service.exchange_pick = timed_act, timed_pick
            race_prompts.edit_prompt = timed_edit  # type: ignore[assignment]
            table_id, thread = await start_for_two(world, "tock", seed=21)
            stats, rng = Stats(), random.Random(5)
            while len(delays) < moves:
                user = to_act(world.newest_board(thread), [world.alice, world.bob])[0]
                await play_race_turn(world, table_id, user, thread, rng, stats)
            race_prompts.edit_prompt = edit
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--render", type=float, default=0.4)
    args = parser.parse_args()
    delays = asyncio.run(measure(args.moves, args.render))
    ms = [d * 1000 for d in delays]
    print(
        f"commit -> answer over {len(ms)} clicks (boards +{args.render} s): "
        f"median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms; "
        f"load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
