"""The publisher's pace under Discord's global rate limit."""

from __future__ import annotations

import asyncio

from bot.discord_ui.pace import Pace


async def test_a_burst_past_the_rate_waits_for_the_window() -> None:
    now = [0.0]
    pace = Pace(rate=3, clock=lambda: now[0])
    for _ in range(3):
        await pace.turn()  # within the rate: no wait
    fourth = asyncio.create_task(pace.turn())
    await asyncio.sleep(0.01)
    assert not fourth.done(), "a fourth request in the same second waits"
    now[0] = 1.0
    await asyncio.wait_for(fourth, 2)
