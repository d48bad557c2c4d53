"""The live board with the fake Discord: the board's live buttons, the Activity's launch
and sign-in, the page following moves made by buttons, and a move from the page reaching the
thread as a button's does."""

from __future__ import annotations

import random
from typing import Any

from bot.discord_ui.client import sync_global
from bot.discord_ui.live_links import LiveLinks
from tests.bot.discord.conftest import World
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_lobby import start_for_two
from tests.fakediscord.models import iter_components
from tests.web.live import PUBLIC, Live, config, live_server


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for c in iter_components(message.components) if c.get("type") == 2]


def activity(world: World) -> None:
    """The bot serves the live board and the app has Activities enabled."""
    world.desk.publisher.live = LiveLinks(PUBLIC, activity=True)
    world.fake.enable_activities()


async def sign_in(live: Live, world: World, user: Any, thread_id: int) -> dict[str, Any]:
    """The Activity's sign-in of ``user`` in the table's thread (the SDK's authorize gave the
    page a code; the page posts it with the channel the Activity runs in)."""
    code = world.fake.oauth_code(user)
    body = {"code": code, "guild_id": str(world.guild.id), "channel_id": str(thread_id)}
    origin = {"Origin": f"https://{world.fake.application_id}.discordsays.com"}
    async with live.http.post(live.url("/live/api/token"), json=body, headers=origin) as answer:
        assert answer.status == 200, await answer.text()
        data: dict[str, Any] = await answer.json()
    return data


def discord_config(world: World) -> Any:
    return config(client_id=str(world.fake.application_id), client_secret=world.fake.client_secret)


async def test_every_board_links_to_the_live_page_and_opens_the_activity(world: World) -> None:
    activity(world)
    table_id, thread = await start_for_two(world, "tock", 5)
    board = world.newest_board(thread)
    link = next(b for b in buttons(board) if b.get("style") == 5)
    assert link["url"] == f"{PUBLIC}/live/table/{table_id}"
    assert link["label"] == "Watch live"
    assert "session" not in link["url"]
    opened = await world.carol.click(board, label="Open the board")
    assert opened.response_type == 12
    assert [i.user.id for i in world.fake.launched] == [world.carol.id]


async def test_a_thread_that_refuses_the_activity_gets_the_link(world: World) -> None:
    activity(world)
    world.fake.activity_in_threads = False
    table_id, thread = await start_for_two(world, "tock", 5)
    opened = await world.bob.click(world.newest_board(thread), label="Open the board")
    assert opened.ephemeral
    assert f"{PUBLIC}/live/table/{table_id}" in opened.text
    # Discord's refusal was expected here (the world checks that none other happened).
    world.fake.requests[:] = [r for r in world.fake.requests if r.error is None]


async def test_no_live_buttons_without_the_web_server(world: World) -> None:
    _, thread = await start_for_two(world, "tock", 5)
    labels = [b.get("label") for b in buttons(world.newest_board(thread))]
    assert "Watch live" not in labels
    assert "Open the board" not in labels


async def test_the_page_follows_the_buttons_and_moves_for_the_thread(world: World) -> None:
    activity(world)
    table_id, thread = await start_for_two(world, "tock", 5)
    service = world.desk.service
    async with live_server(service, discord_config(world), deliver=False) as live:
        live.server.deliver = world.desk.on_effects  # the thread's digest, as after a button
        alice = await sign_in(live, world, world.alice, thread.id)
        carol = await sign_in(live, world, world.carol, thread.id)
        assert alice["table"] == table_id
        assert alice["access_token"] in world.fake.oauth_tokens
        async with live.page() as page_a, live.page() as page_c:
            await page_a.hello(table_id, alice["session"])
            await page_c.hello(table_id, carol["session"])
            mine = await page_a.next("state")
            watching = await page_c.next("state")
            assert mine["you"]["seat"] == 0
            assert watching["you"] is None
            stats = Stats()
            people = {u.id: u for u in (world.alice, world.bob)}
            record = await service.get(table_id)
            users = {s.index: people[s.user_id] for s in record.seats if s.user_id in people}
            rng = random.Random(2)
            version = mine["version"]
            for _turn in range(3):
                # Whoever owes the move plays it with buttons: both pages follow.
                state = await page_c.state_at(version)
                seat = state["to_act"][0]
                await play_race_turn(world, table_id, users[seat], thread, rng, stats)
                version = (await service.get(table_id)).version
                assert (await page_c.state_at(version))["version"] == version
                assert (await page_a.state_at(version))["version"] == version
            # Alice moves from the page when it is her turn.
            while (await service.private_info(table_id, world.alice.id)).to_act is False:
                await play_race_turn(world, table_id, world.bob, thread, rng, stats)
            version = (await service.get(table_id)).version
            state = await page_a.state_at(version)
            boards = len(world.boards(thread))
            option = state["you"]["options"][0]
            await page_a.move(state["version"], option["path"])
            played = (await page_a.next("played"))["text"]
            await world.wait(lambda: len(world.boards(thread)) > boards, "the digest")
            # The page tells the move in the words of the thread's digest.
            told = played.removeprefix("Played: ")
            assert told != played
            assert told in world.boards(thread)[-1].content
            assert (await page_c.state_at(version + 1))["version"] > version


async def test_a_code_is_good_once_and_another_server_is_not_signed_into(world: World) -> None:
    table_id, _thread = await start_for_two(world, "tock", 5)
    service = world.desk.service
    stranger_guild = world.fake.add_guild("Elsewhere")
    stranger = world.fake.add_user("mallory", guild=stranger_guild)
    async with live_server(service, discord_config(world)) as live:
        origin = {"Origin": PUBLIC}
        code = world.fake.oauth_code(world.bob)
        body = {"code": code, "table": table_id}
        url = live.url("/live/api/token")
        async with live.http.post(url, json=body, headers=origin) as answer:
            assert answer.status == 200
        async with live.http.post(url, json=body, headers=origin) as answer:
            assert answer.status == 403  # the code was used
        # Mallory is on no server of the table and not seated: the table is not there.
        body = {"code": world.fake.oauth_code(stranger), "table": table_id}
        async with live.http.post(url, json=body, headers=origin) as answer:
            assert answer.status == 404
            assert "no such table" in (await answer.json())["error"]
        # A page from anywhere else is not answered.
        body = {"code": world.fake.oauth_code(world.bob), "table": table_id}
        evil = {"Origin": "https://evil.example"}
        async with live.http.post(url, json=body, headers=evil) as answer:
            assert answer.status == 403
    # Discord's refusal of the used code was expected (the world checks none other happened).
    world.fake.requests[:] = [r for r in world.fake.requests if r.path != "/oauth2/token"]


async def test_command_sync_keeps_the_entry_point_command(world: World) -> None:
    entry = world.fake.enable_activities()
    count = await sync_global(world.bot)
    stored = world.fake.global_commands
    assert count == len(stored) - 1
    assert next(c for c in stored if c["type"] == 4)["id"] == entry["id"]
    # discord.py's own bulk overwrite would have lost it: Discord refuses that (50240).
    assert len([c for c in stored if c["type"] == 1]) > 5


async def test_the_host_lets_anyone_watch_with_the_table_option(world: World) -> None:
    opened = await world.alice.slash(world.channel, "tock new", players=2, watch_live=True)
    open_table = int(opened.text.split("#", 1)[1].split(" ", 1)[0])
    closed = await world.alice.slash(world.channel, "tock new", players=2)
    closed_table = int(closed.text.split("#", 1)[1].split(" ", 1)[0])
    async with live_server(world.desk.service) as live:
        async with live.page() as page:
            await page.hello(open_table)
            state = await page.next()
            assert state["type"] == "state"
            assert state["public"] is None  # still in the lobby
            assert state["status"].startswith("Waiting for players.")
        async with live.page() as page:
            await page.hello(closed_table)
            assert (await page.next())["type"] == "error"
