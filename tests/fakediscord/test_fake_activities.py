"""The fake's Activity parts: OAuth2's token endpoint and the user's own routes with a Bearer
token, the LAUNCH_ACTIVITY response (callback type 12), and the Entry Point command."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from tests.fakediscord.conftest import World


async def exchange(world: World, code: str, secret: str | None = None) -> aiohttp.ClientResponse:
    form = {
        "client_id": str(world.fake.application_id),
        "client_secret": secret or world.fake.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    async with aiohttp.ClientSession() as http:
        response = await http.post(f"{world.fake.api_base}/oauth2/token", data=form)
        await response.read()
        return response


async def test_a_code_is_exchanged_once_for_the_users_token(world: World) -> None:
    code = world.fake.oauth_code(world.alice, ("identify",))
    first = await exchange(world, code)
    grant = await first.json()
    assert grant["token_type"] == "Bearer"
    assert grant["scope"] == "identify"
    again = await exchange(world, code)
    assert again.status == 400
    assert await again.json() == {"error": "invalid_grant"}
    wrong = await exchange(world, world.fake.oauth_code(world.alice), secret="guess")
    assert wrong.status == 401
    headers = {"Authorization": f"Bearer {grant['access_token']}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{world.fake.api_base}/users/@me", headers=headers) as me:
            assert (await me.json())["id"] == str(world.alice.id)
        # Without the guilds scope, the user's servers are not told.
        async with http.get(f"{world.fake.api_base}/users/@me/guilds", headers=headers) as mine:
            assert mine.status == 403
        bad = {"Authorization": "Bearer nothing"}
        async with http.get(f"{world.fake.api_base}/users/@me", headers=bad) as me:
            assert me.status == 401
    world.fake.requests[:] = [r for r in world.fake.requests if r.error is None]


async def test_launch_activity_needs_activities_enabled(world: World) -> None:
    await world.alice.slash(world.chan, "hold", wait=False)
    await world.fake.wait_for(lambda: world.bot.held)
    interaction = world.bot.held[-1]
    with pytest.raises(discord.HTTPException):
        await interaction.response.launch_activity()
    world.fake.enable_activities()
    await interaction.response.launch_activity()
    assert world.fake.launched == [world.fake.interactions[interaction.id]]
    world.fake.requests[:] = [r for r in world.fake.requests if r.error is None]


async def test_a_bulk_overwrite_must_keep_the_entry_point_command(world: World) -> None:
    world.fake.enable_activities()
    with pytest.raises(discord.HTTPException) as refused:
        await world.bot.tree.sync()
    assert refused.value.code == 50240
    world.fake.requests[:] = [r for r in world.fake.requests if r.error is None]
