"""The live page end to end: the bot's own web server (bot/web) over the table service, the
fake Discord (tests/fakediscord) for the threads, buttons and OAuth2, and the page in a real
headless Chromium inside a stand-in for Discord's Activity frame.

A member who is not seated opens the Activity in a table's thread: the board shows, follows a
turn played with the thread's buttons, and never shows a hand. A seated player opens it and
plays by clicking: the move reaches the thread as a button's would; a split 7 (second pawn
first) and a Jack swap, clicked in the Activity at a table with a bot, reach the thread's board
and the table's log. Carcassonne: a tile turned and a figure placed by clicking. A German
page draws the German seat initials.
"""

from __future__ import annotations

import contextlib
import random
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.web.server import LiveServer
from tests.bot.discord.conftest import World, running_world
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_lobby import open_table, start_for_two
from tests.web.client.activity import parent_page
from tests.web.client.conftest import CHROMIUM, FIGURE_SPOTS, SPOT_BOXES, overlapping_spots
from tests.web.live import config

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Site:
    """The bot's live server on a local port, plus the test's stand-in Discord frames."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.frames: dict[str, str] = {}
        web_config = config(
            public_url=self.base,
            client_id=str(world.fake.application_id),
            client_secret=world.fake.client_secret,
        )
        assert world.desk is not None
        # Moves from the page go to the thread through the Discord front end, as in the bot.
        self.server = LiveServer(world.desk.service, web_config, world.desk.deliver)
        self.server.app.router.add_get("/test/{name}", self.frame)

    async def frame(self, request: web.Request) -> web.Response:
        return web.Response(text=self.frames[request.match_info["name"]], content_type="text/html")

    def activity(self, user: Any, channel_id: int) -> str:
        """The address of a Discord stand-in that runs the Activity for ``user`` in
        ``channel_id`` (the SDK's authorize answers with a code of the fake's OAuth2)."""
        name = f"activity-{user.id}-{channel_id}.html"
        query = (
            f"?frame_id=frame-{user.id}&instance_id=i-{channel_id}&platform=desktop"
            f"&guild_id={self.world.guild.id}&channel_id={channel_id}"
        )
        self.frames[name] = parent_page(
            "/" + query,
            code=self.world.fake.oauth_code(user),
            user_id=str(user.id),
            username=str(user.name) if hasattr(user, "name") else "user",
            client_id=str(self.world.fake.application_id),
        )
        return f"{self.base}/test/{name}"


@contextlib.asynccontextmanager
async def served(world: World) -> AsyncIterator[tuple[Site, Any]]:
    """The live server and a headless Chromium (both closed after)."""
    from playwright.async_api import async_playwright

    site = Site(world)
    test_server = TestServer(site.server.app, host="127.0.0.1", port=site.port)
    await test_server.start_server()
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                yield site, browser
            finally:
                await browser.close()
    finally:
        await test_server.close()


async def open_activity(
    browser: Any, url: str, errors: list[str], width: int = 1200
) -> tuple[Any, Any]:
    context = await browser.new_context(
        viewport={"width": width, "height": 900}, device_scale_factor=1
    )
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(url)
    frame = page.frame_locator("#activity")
    await frame.locator(".poeppel-board").wait_for(timeout=15000)
    return page, frame


async def version_of(frame: Any) -> int:
    return int(await frame.locator("#app").get_attribute("data-version"))


async def wait_version(frame: Any, at_least: int) -> None:
    await (
        frame.locator(f"#app[data-version='{at_least}']")
        .or_(frame.locator(f"#app[data-version='{at_least + 1}']"))
        .first.wait_for(timeout=10000)
    )


async def seat_user(world: World, table_id: int, seat: int) -> Any:
    record = await world.desk.service.get(table_id)  # type: ignore[union-attr]
    user_id = next(s.user_id for s in record.seats if s.index == seat)
    return next(u for u in (world.alice, world.bob, world.carol) if u.id == user_id)


async def test_a_member_watches_the_activity_follow_the_buttons(world: World) -> None:
    table_id, thread = await start_for_two(world, "tock", 5)
    errors: list[str] = []
    async with served(world) as (site, browser):
        page, frame = await open_activity(browser, site.activity(world.carol, thread.id), errors)
        assert await frame.locator(".race-board .pawn").count() == 8
        # Carol is no player: no hand, no choices, the spectator's note.
        assert await frame.locator("#you").is_hidden()
        assert await frame.locator("#hand button").count() == 0
        assert await frame.locator("#spectating").is_visible()
        assert (
            await page.evaluate(
                "() => document.getElementById('activity').contentWindow.poeppelLive.state.you"
            )
            is None
        )
        # A turn played with the thread's buttons shows on the page within a moment.
        before = await version_of(frame)
        to_act = (await world.desk.service.live.reader_state(table_id, None, "en"))["to_act"]  # type: ignore[union-attr]
        player = await seat_user(world, table_id, to_act[0])
        await play_race_turn(world, table_id, player, thread, random.Random(1), Stats())
        await frame.locator(f"#app:not([data-version='{before}'])").wait_for(timeout=10000)
        assert await version_of(frame) > before
        assert await frame.locator("#since li").count() >= 1
        assert await frame.locator("#you").is_hidden()
    assert not errors


async def test_a_player_moves_from_the_activity_and_the_thread_follows(world: World) -> None:
    table_id, thread = await start_for_two(world, "tock", 5)
    errors: list[str] = []
    state = await world.desk.service.live.reader_state(table_id, None, "en")  # type: ignore[union-attr]
    player = await seat_user(world, table_id, state["to_act"][0])
    boards = len(world.boards(thread))
    async with served(world) as (site, browser):
        page, frame = await open_activity(browser, site.activity(player, thread.id), errors)
        await frame.locator("#hand button").first.wait_for(timeout=10000)
        you = await page.evaluate(
            "() => document.getElementById('activity').contentWindow.poeppelLive.state.you"
        )
        assert you is not None
        assert you["options"]
        # Click the first option's targets until the page sends it.
        version = await version_of(frame)
        moved = frame.locator(f"#app:not([data-version='{version}'])")
        for target in you["options"][0]["path"]:
            # The page sends the move as soon as one option is left: maybe before the end.
            await moved.or_(frame.locator(f"[data-target='{target}']")).first.wait_for(
                timeout=10000
            )
            if await moved.count():
                break
            await frame.locator(f"[data-target='{target}']").first.click()
        await moved.wait_for(timeout=10000)
        # The move reached the thread: a new board there, as after a button.
        await world.wait(lambda: len(world.boards(thread)) > boards, "board after the page's move")
        await frame.locator("#notice").wait_for(state="visible", timeout=5000)
    assert not errors


async def test_a_carcassonne_tile_and_figure_by_clicking(world: World, shots: Path) -> None:
    table_id, thread = await start_for_two(world, "carcassonne", 5)
    errors: list[str] = []
    state = await world.desk.service.live.reader_state(table_id, None, "en")  # type: ignore[union-attr]
    player = await seat_user(world, table_id, state["to_act"][0])
    async with served(world) as (site, browser):
        page, frame = await open_activity(
            browser, site.activity(player, thread.id), errors, width=400
        )
        cell = frame.locator(".carcassonne-board .target[data-target^='cell:']").first
        await cell.wait_for(timeout=10000)
        chosen_cell = (await cell.get_attribute("data-target")).split(":")[1]
        await cell.click()
        turns = frame.locator("#choices [data-target^='turn:']")
        if await turns.count():
            await turns.first.click()
        spot = frame.locator(FIGURE_SPOTS).first
        await spot.wait_for(timeout=10000)
        await page.screenshot(path=str(shots / "live-carcassonne-figure-400.png"))
        # On a phone the board zooms to the new tile: each spot a separate fingertip target,
        # "No figure" still a button.
        boxes = await frame.locator(FIGURE_SPOTS).evaluate_all(SPOT_BOXES)
        assert len(boxes) >= 2
        assert all(box["zoomed"] for box in boxes)
        assert overlapping_spots(boxes) == []
        assert await frame.locator("#choices [data-target$=':none']").count() == 1
        await spot.click()
        await frame.locator(f".figure[data-cell='{chosen_cell}']").first.wait_for(timeout=10000)
        # The figure step over: the whole map again.
        assert await frame.locator(".carcassonne-board.zoomed").count() == 0
        assert await frame.locator(f".tile[data-cell='{chosen_cell}']").count() == 1
    assert not errors


async def play_turns(world: World, table_id: int, thread: Any, count: int, tiles: bool) -> None:
    """``count`` turns played with the thread's buttons by whoever the board names."""
    from tests.bot.discord.driving import play_tile_turn, to_act

    rng = random.Random(3)
    stats = Stats()
    for _ in range(count):
        for user in to_act(world.newest_board(thread), [world.alice, world.bob]):
            if tiles:
                await play_tile_turn(world, table_id, user, thread, rng, stats)
            else:
                await play_race_turn(world, table_id, user, thread, rng, stats)


@pytest.mark.parametrize("game", ["tock", "carcassonne"])
async def test_screenshots_of_a_seated_player_choosing(
    world: World, game: str, shots: Path
) -> None:
    """live-<game>-<width>.png (docs/images with LIVE_SCREENSHOTS=docs): a seated player in
    the middle of a game, the first step of a move chosen and the next targets lit."""
    table_id, thread = await start_for_two(world, game, 11)
    live = world.desk.service.live  # type: ignore[union-attr]
    await play_turns(world, table_id, thread, 14 if game == "tock" else 10, game == "carcassonne")
    for _ in range(40):
        # On to a turn with a move worth showing (a pawn to move, not only discards).
        state = await live.reader_state(table_id, None, "en")
        player = await seat_user(world, table_id, state["to_act"][0])
        mine = await live.reader_state(table_id, player.id, "en")
        firsts = [o["path"][0] for o in mine["you"]["options"] if len(o["path"]) >= 3]
        if len(firsts) > len(set(firsts)) or game == "carcassonne":
            break
        await play_turns(world, table_id, thread, 1, False)
    errors: list[str] = []
    async with served(world) as (site, browser):
        for width in (1200, 400):
            page, frame = await open_activity(
                browser, site.activity(player, thread.id), errors, width
            )
            await frame.locator("#you").wait_for(timeout=10000)
            you = await page.evaluate(
                "() => document.getElementById('activity').contentWindow.poeppelLive.state.you"
            )
            # A first step that leaves several options: its next targets light up.
            firsts = [option["path"][0] for option in you["options"]]
            several = [step for step in firsts if firsts.count(step) > 1]
            if several:
                await frame.locator(f"[data-target='{several[0]}']").first.click()
                lit = frame.locator(".layer-lit .target").or_(
                    frame.locator("#choices [data-target]")
                )
                await lit.first.wait_for(timeout=5000)
            await page.wait_for_timeout(300)  # tile images
            await page.screenshot(path=str(shots / f"live-{game}-{width}.png"), full_page=True)
            await page.context.close()
    assert not errors


async def test_outside_discord_the_page_shows_only_tables_open_to_watch(world: World) -> None:
    """A plain browser (no Activity, no session): the *Watch live* link of a table whose host
    let anyone watch shows the board; another table's link shows the server's words only."""
    open_id, _ = await start_for_two(world, "tock", 5, watch_live=True)
    closed_id, _ = await start_for_two(world, "tock", 6)
    errors: list[str] = []
    async with served(world) as (site, browser):
        page = await browser.new_page(viewport={"width": 400, "height": 800})
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(f"{site.base}/live/table/{open_id}")
        await page.locator(".race-board .pawn").first.wait_for(timeout=10000)
        assert await page.locator(".race-board .pawn").count() == 8
        assert await page.locator("#you").is_hidden()
        assert await page.locator("#hand button").count() == 0
        await page.goto(f"{site.base}/live/table/{closed_id}")
        await page.locator("#app[data-state='error']").wait_for(timeout=10000)
        assert await page.locator(".poeppel-board").count() == 0
        assert await page.locator("#status").inner_text()
    assert not errors


async def test_a_german_page_draws_the_german_initials(tmp_path: Path, shots: Path) -> None:
    """A member whose Discord speaks German watches a four-seat Tock table in the Activity:
    pawns, seat tags and the seat list carry the German initials (Ge for Gelb, Gr for Grün),
    never the English letters."""
    async with running_world(tmp_path, locales=("en-US", "en-US", "de")) as world:
        world.seeds.append(5)
        table_id, lobby = await open_table(world, "tock", players=4)
        await world.bob.click(lobby, label="Join")
        for _ in range(2):
            await world.alice.click(world.lobby(table_id), label="Add bot")
        await world.alice.click(world.lobby(table_id), label="Start")
        thread = world.thread_of(world.lobby(table_id))
        await world.wait(lambda: world.newest_board(thread))
        errors: list[str] = []
        german = {0: "R", 1: "B", 2: "Ge", 3: "Gr"}
        async with served(world) as (site, browser):
            _page, frame = await open_activity(
                browser, site.activity(world.carol, thread.id), errors, width=400
            )
            assert await frame.locator("html").get_attribute("lang") == "de"
            for seat, initial in german.items():
                pawns = frame.locator(f".race-board .pawn[data-seat='{seat}'] text")
                assert await pawns.all_text_contents() == [initial] * 4, seat
                chip = frame.locator(f"#seats li[data-seat='{seat}'] .chip")
                assert await chip.inner_text() == initial
            # The seat tags beside the kennels too: every letter on the board is German.
            texts = await frame.locator(".race-board text").all_text_contents()
            for english in ("Y", "G"):
                assert english not in texts
            assert texts.count("Ge") >= 5
            assert texts.count("Gr") >= 5
            await _page.screenshot(path=str(shots / "live-tock-de-400.png"), full_page=True)
        # Carcassonne: a third seat is green, Gr in German, on its chip and its figures.
        world.seeds.append(4)
        table_id, lobby = await open_table(world, "carcassonne", players=3)
        await world.bob.click(lobby, label="Join")
        await world.alice.click(world.lobby(table_id), label="Add bot")
        await world.alice.click(world.lobby(table_id), label="Start")
        thread = world.thread_of(world.lobby(table_id))
        await world.wait(lambda: world.newest_board(thread))
        await play_turns(world, table_id, thread, 6, True)
        async with served(world) as (site, browser):
            page, frame = await open_activity(
                browser, site.activity(world.carol, thread.id), errors, width=400
            )
            chips = await frame.locator("#seats .chip").all_inner_texts()
            assert chips == ["R", "B", "Gr"]
            figures = await frame.locator(".carcassonne-board .figure text").all_text_contents()
            assert figures
            assert set(figures) <= {"R", "B", "Gr"}
            await page.screenshot(path=str(shots / "live-carcassonne-de-400.png"), full_page=True)
    assert not errors


async def alice_against_a_bot(world: World, seed: int, turns: int) -> tuple[int, Any]:
    """A Tock table of alice and a bot (``seed``), alice's first ``turns`` turns played with
    the thread's buttons (greedy: the drivers' best-scored move), alice to play now."""
    world.seeds.append(seed)
    table_id, lobby = await open_table(world, "tock", players=2)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    rng, stats = random.Random(1), Stats()
    for _ in range(turns):
        await play_race_turn(world, table_id, world.alice, thread, rng, stats)
    return table_id, thread


async def click_through(frame: Any, targets: list[str]) -> None:
    """Click ``targets`` in this order (each must be lit or offered first) until the page
    sends its move and a newer state shows."""
    version = await version_of(frame)
    moved = frame.locator(f"#app:not([data-version='{version}'])")
    for target in targets:
        lit = frame.locator(f"[data-target='{target}']").first
        await moved.or_(lit).first.wait_for(timeout=10000)
        if await moved.count():
            return
        await lit.click()
    await moved.wait_for(timeout=10000)


def walks(path: list[str]) -> list[str]:
    """The walks of a split 7's click path, as the log writes them (``r0-r3``)."""
    steps = [step.split(":", 1)[1] for step in path[1:]]
    return [f"{a}-{b}" for a, b in zip(steps[::2], steps[1::2], strict=True)]


async def test_a_split_seven_and_a_jack_swap_by_clicking_through_the_bot(world: World) -> None:
    """Alice, at a Tock table with a bot, holds a 7 and a Jack (seed 22, after six turns
    played with the thread's buttons): in the Activity she splits the 7 between two pawns by
    clicking, the second pawn of the server's option first, and after the bot's turn swaps
    with the Jack. Each move reaches the thread's board and the table's log as a button's
    would."""
    table_id, thread = await alice_against_a_bot(world, 22, 6)
    live = world.desk.service.live  # type: ignore[union-attr]
    storage = world.desk.service.storage  # type: ignore[union-attr]
    mine = await live.reader_state(table_id, world.alice.id, "en")
    pawns = {step for o in mine["you"]["options"] for step in o["path"] if step.startswith("pawn:")}
    # A split of the 7 between two pawns, neither landing where a pawn stands now (so the
    # order the pawns are clicked in changes nothing on the board).
    split = next(
        o["path"]
        for o in mine["you"]["options"]
        if o["path"][0] == "card:7"
        and len(o["path"]) == 5
        and not {o["path"][2], o["path"][4]} & {f"field:{p[5:]}" for p in pawns}
    )
    errors: list[str] = []
    async with served(world) as (site, browser):
        _page, frame = await open_activity(browser, site.activity(world.alice, thread.id), errors)
        await frame.locator("#hand button").first.wait_for(timeout=10000)
        logged = len(await storage.load_log(table_id))
        boards = len(world.boards(thread))
        _, first_pawn, first_field, second_pawn, second_field = split
        await click_through(frame, ["card:7", second_pawn, second_field, first_pawn, first_field])
        await world.wait(lambda: len(world.boards(thread)) > boards, "board after the 7")
        log = await storage.load_log(table_id)
        seven = next(e.text for e in log[logged:] if e.seat == 0)
        assert seven.startswith("7:")
        assert sorted(seven[2:].split(",")) == sorted(walks(split))
        digest = world.boards(thread)[-1].content
        assert "alice: Red plays a 7." in digest
        assert digest.count("Red's pawn:") == 2
        # The bot has played: alice's turn again, with the Jack and a pawn to swap with.
        mine = await live.reader_state(table_id, world.alice.id, "en")
        assert mine["to_act"] == [0], "the bot played in the 7's aftermath"
        swap = next(
            o["path"]
            for o in mine["you"]["options"]
            if o["path"][0] == "card:J" and len(o["path"]) == 3
        )
        await frame.locator(f"#app[data-version='{mine['version']}']").wait_for(timeout=10000)
        logged = len(await storage.load_log(table_id))
        boards = len(world.boards(thread))
        await click_through(frame, swap)
        await world.wait(lambda: len(world.boards(thread)) > boards, "board after the Jack")
        log = await storage.load_log(table_id)
        jack = next(e.text for e in log[logged:] if e.seat == 0)
        assert jack.startswith("J:")
        assert set(jack[2:].split("<>")) == {swap[1][5:], swap[2][5:]}
        digest = world.boards(thread)[-1].content
        assert "alice: Red plays a Jack." in digest
        assert "swap places" in digest.split("alice: Red plays a Jack.")[1]
    assert not errors
