"""The live board's socket over the table service: hello, states, updates after moves, moves
from the page (legal, stale, illegal, forged, by a spectator), origins and who may watch."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import TableService
from tests.web.live import PUBLIC, Page, live_server, session

GUILD, OTHER_GUILD, CHANNEL = 7, 70, 8
ANN, BEA, EVE = 100, 101, 666


async def tock_table(service: TableService, *, watch: bool = False, guild: int = GUILD) -> int:
    """A Tock table of Ann and three bots, started (Ann's turn, seed chosen for it)."""
    effects = await service.create(
        guild, CHANNEL, "tock", ANN, "Ann", players=4, seed=3, live_watch=watch
    )
    table = effects.table.id
    for _ in range(3):
        await service.add_bot(table, ANN)
    await service.start_game(table, ANN)
    return table


async def test_a_spectator_sees_the_public_state_and_its_update(service: TableService) -> None:
    table = await tock_table(service, watch=True)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table, locale="de")
        state = await page.next("state")
        assert state["table"] == table
        assert state["game"] == "tock"
        assert state["you"] is None
        assert state["public"]["viewer"] is None
        assert state["locale"] == "de"
        assert next(s["name"] for s in state["seats"]) == "Ann"
        assert state["status"] == "Ann ist am Zug."
        # Ann moves by a button: the page follows within a moment.
        info = await service.private_info(table, ANN)
        await service.act(table, ANN, info.legal_moves[0], info.table.version)
        moved = await page.state_at(state["version"] + 1)
        assert moved["version"] > state["version"]
        assert any(line["seat"] == 0 for line in moved["since"])
        assert moved["you"] is None


async def test_spectating_is_refused_unless_the_host_allowed_it(service: TableService) -> None:
    table = await tock_table(service)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table)
        error = await page.next()
        no_table = "There is no such table, or you may not watch it."
        assert error == {"type": "error", "text": no_table}
        with pytest.raises(ConnectionError):
            await page.next()
    # The same words for a table that does not exist.
    async with live_server(service) as live, live.page() as page:
        await page.hello(table + 1000)
        assert (await page.next())["text"] == error["text"]


async def test_a_page_from_another_origin_is_refused(service: TableService) -> None:
    table = await tock_table(service, watch=True)
    async with live_server(service) as live:
        async with live.http.get(
            live.url("/live/socket"), headers={"Origin": "https://evil.example"}
        ) as answer:
            assert answer.status == 403
        async with live.page(origin=f"https://{4242}.discordsays.com") as page:
            await page.hello(table)
            assert (await page.next())["type"] == "state"
        async with live.http.post(
            live.url("/live/api/token"),
            json={"code": "x"},
            headers={"Origin": "https://evil.example"},
        ) as answer:
            assert answer.status == 403


async def seated_page(page: Page, table: int) -> dict[str, Any]:
    await page.hello(table, session(ANN, table))
    return await page.next("state")


async def test_a_seated_player_moves_from_the_page(service: TableService) -> None:
    table = await tock_table(service)
    async with live_server(service) as live, live.page() as page:
        state = await seated_page(page, table)
        you = state["you"]
        assert you["seat"] == 0
        assert len(you["hand"]) == 5
        assert you["options"]
        option = you["options"][0]
        assert all(
            step in you["targets"] or not step.startswith(("card:", "act:"))
            for step in option["path"]
        )
        await page.move(state["version"], option["path"])
        played = await page.next("played")
        assert played["text"].startswith("Played: ")
        after = await page.state_at(state["version"] + 1)
        assert after["version"] > state["version"]
        # The thread gets the move's digest as after a button.
        await asyncio.sleep(0.05)
        assert live.delivered
        assert live.delivered[0].public[0].by_person


async def test_bad_moves_are_refused_in_words_and_change_nothing(service: TableService) -> None:
    table = await tock_table(service)
    async with live_server(service) as live, live.page() as page:
        state = await seated_page(page, table)
        version = state["version"]
        option = state["you"]["options"][0]["path"]
        # A forged path (a pawn that is not there).
        await page.move(version, ["card:K", "pawn:r33", "field:r40"])
        assert (await page.next("refused"))["text"] == "That is not a move you can make now."
        # Nonsense.
        await page.move(version, "K")  # type: ignore[arg-type]
        assert (await page.next("refused"))["text"] == "That is not a move you can make now."
        assert (await service.get(table)).version == version
        # A version from before the start.
        await page.move(1, option)
        assert "moved on" in (await page.next("refused"))["text"]
        assert (await service.get(table)).version == version
        # A spectator's socket cannot move.
    async with live_server(service) as live, live.page() as page:
        await page.hello(table, session(EVE, table, member=True))
        spectator = await page.next("state")
        assert spectator["you"] is None
        await page.move(version, option)
        refused = await page.next("refused")
        assert refused["text"] == "You are watching this table; only its players move."
        assert (await service.get(table)).version == version


async def test_a_stale_move_after_the_turn_is_refused(service: TableService) -> None:
    table = await tock_table(service)
    async with live_server(service) as live, live.page() as page:
        state = await seated_page(page, table)
        path = state["you"]["options"][0]["path"]
        await page.move(state["version"], path)
        await page.next("played")
        await page.move(state["version"], path)
        refused = await page.next("refused")
        assert refused["text"] in (
            "The game moved on meanwhile; look at the newest board.",
            "That is not a move you can make now.",
        )


async def test_a_session_is_for_one_table_only(service: TableService) -> None:
    ours = await tock_table(service)
    theirs = await tock_table(service, guild=OTHER_GUILD)
    async with live_server(service) as live, live.page() as page:
        # Eve's session of our table does not open another server's table.
        await page.hello(theirs, session(EVE, ours))
        assert (await page.next())["type"] == "error"
    async with live_server(service) as live, live.page() as page:
        # A session signed with another key is nobody's.
        from bot.web.auth import Session, SessionSigner

        forged = SessionSigner(b"guess").sign(Session(ANN, theirs))
        await page.hello(theirs, forged)
        assert (await page.next())["type"] == "error"


async def test_too_many_moves_are_refused(service: TableService) -> None:
    table = await tock_table(service)
    async with live_server(service) as live, live.page() as page:
        state = await seated_page(page, table)
        for _ in range(6):
            await page.move(state["version"], ["card:K", "pawn:r70", "field:r1"])
        texts = [(await page.next("refused"))["text"] for _ in range(6)]
        assert "Not so fast: wait a moment and try again." in texts


async def test_static_files_are_served(service: TableService) -> None:
    async with live_server(service) as live:
        for path in ("/", "/live/", "/live/table/12"):
            async with live.http.get(live.url(path)) as answer:
                assert answer.status == 200
                assert "text/html" in answer.headers["Content-Type"]
        async with live.http.get(live.url("/live/static/index.html")) as answer:
            assert answer.status == 200
        async with live.http.get(live.url("/live/static/../server.py")) as answer:
            assert answer.status in (403, 404)
        assert PUBLIC.startswith("https://")
