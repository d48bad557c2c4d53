"""A split 7 from the page may name its pawns in either order: the server lists each split
once, and takes the same walks clicked the other way round as that split."""

from __future__ import annotations

from bot.service import TableService
from bot.service.live import option_index
from tests.web.live import live_server, session

ANN = 100


def test_a_split_is_found_in_any_order_of_its_walks() -> None:
    paths = [
        ["card:7", "pawn:r0", "field:r1", "pawn:r5", "field:r11"],
        ["card:7", "pawn:r0", "field:r2", "pawn:r5", "field:r10"],
        ["card:7", "pawn:r0", "field:r7"],
        ["card:J", "pawn:r0", "pawn:r30"],
    ]
    assert option_index(paths, paths[1]) == 1
    assert option_index(paths, ["card:7", "pawn:r5", "field:r10", "pawn:r0", "field:r2"]) == 1
    assert option_index(paths, ["card:7", "pawn:r5", "field:r11", "pawn:r0", "field:r1"]) == 0
    # Walks of no option, a Jack's pawns the other way round, a pawn twice: none.
    assert option_index(paths, ["card:7", "pawn:r5", "field:r9", "pawn:r0", "field:r3"]) is None
    assert option_index(paths, ["card:J", "pawn:r30", "pawn:r0"]) is None
    assert option_index(paths, ["card:7", "pawn:r0", "field:r1", "pawn:r0", "field:r1"]) is None


async def ann_holds_a_split_seven(service: TableService) -> int:
    """Ann against a bot (seed 20): after her first turns (a pawn out, then forward) she may
    split a 7 between two pawns."""
    effects = await service.create(7, 8, "tock", ANN, "Ann", players=2, seed=20)
    table = effects.table.id
    await service.add_bot(table, ANN)
    await service.start_game(table, ANN)
    for _ in range(3):
        info = await service.private_info(table, ANN)
        moves = list(info.legal_moves)
        best = next((m for m in moves if ":E" in m), None)
        best = best or next((m for m in moves if ":r" in m and "-" in m), moves[0])
        await service.act(table, ANN, best, info.table.version)
    return table


async def test_a_split_seven_sent_second_pawn_first_is_played(service: TableService) -> None:
    table = await ann_holds_a_split_seven(service)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table, session(ANN, table))
        state = await page.next("state")
        split = next(
            o["path"]
            for o in state["you"]["options"]
            if o["path"][0] == "card:7" and len(o["path"]) == 5
        )
        card, first_pawn, first_field, second_pawn, second_field = split
        await page.move(
            state["version"], [card, second_pawn, second_field, first_pawn, first_field]
        )
        assert (await page.next("played"))["text"].startswith("Played: ")
        log = await service.storage.load_log(table)
        played = next(e.text for e in reversed(log) if e.seat == 0)
        walks = [f"{first_pawn[5:]}-{first_field[6:]}", f"{second_pawn[5:]}-{second_field[6:]}"]
        assert played == "7:" + ",".join(walks)
        assert live.delivered
