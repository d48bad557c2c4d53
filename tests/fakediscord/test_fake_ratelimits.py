"""Discord's rate limits, modelled: a bot that follows the X-RateLimit headers never gets a
429; a request that overruns a bucket does."""

from __future__ import annotations

import aiohttp

from tests.fakediscord.conftest import World


async def test_a_channels_message_bucket_holds_the_bot_back_without_a_429(world: World) -> None:
    world.fake.rate_limits.enable(per_channel=(3, 0.3))
    channel = world.text_channel()
    for number in range(7):
        await channel.send(f"line {number}")
    assert [m.content for m in world.fake.messages(world.chan)][-7:] == [
        f"line {n}" for n in range(7)
    ]
    assert world.fake.rate_limits.exceeded == [], "discord.py waited as the headers said"


async def test_a_request_past_the_bucket_gets_discords_429(world: World) -> None:
    world.fake.rate_limits.enable(per_channel=(2, 60.0))
    url = f"{world.fake.api_base}/channels/{world.chan.id}/messages"
    headers = {"Authorization": f"Bot {world.fake.token}"}
    statuses = []
    async with aiohttp.ClientSession() as session:
        for number in range(3):
            async with session.post(url, json={"content": str(number)}, headers=headers) as resp:
                statuses.append(resp.status)
                last = (dict(resp.headers), await resp.json())
    assert statuses == [200, 200, 429]
    answer_headers, body = last
    assert body["retry_after"] > 0
    assert answer_headers["Via"] == "1.1 google"
    assert world.fake.rate_limits.exceeded == [("POST", f"/channels/{world.chan.id}/messages")]
