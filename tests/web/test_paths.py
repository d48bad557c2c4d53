"""Legal moves as click paths (docs/live.md, target ids): every path names the clicks of one
move, no two options share a path, and a step is asked only when it chooses something."""

from __future__ import annotations

from bot.service import TableService
from bot.service.live import option_paths, race_path
from tests.web.live import live_server, session


def test_race_moves_become_clicks() -> None:
    assert race_path("7:r11-r14,r10-r14", 0) == [
        "card:7",
        "pawn:r11",
        "field:r14",
        "pawn:r10",
        "field:r14",
    ]
    assert race_path("J:r30<>r40", 0) == ["card:J", "pawn:r30", "pawn:r40"]
    assert race_path("A:E", 2) == ["card:A", "pawn:k2"]
    assert race_path("K:E3", 1) == ["card:K", "pawn:k3"]
    assert race_path("9:D", 0) == ["card:9", "act:discard"]
    assert race_path("J:N", 0) == ["card:J", "act:nothing"]
    assert race_path("F", 0) == ["act:fold"]
    assert race_path("G:Q", 0) == ["give:Q"]
    assert race_path("r3-r5", 0) == ["pawn:r3", "field:r5"]
    assert race_path("X=A:E", 0) == ["card:X", "as:A", "pawn:k0"]  # "as:" moves last, below


def test_the_jokers_kind_is_asked_only_when_it_matters() -> None:
    moves = ["X=A:E", "X=K:E", "X=5:r3-r8", "X=Q:r3-r15"]
    paths = option_paths("dog", moves, 0)
    # Out with an ace or a king: the same clicks, then the kind chosen by words.
    assert paths[0] == ["card:X", "pawn:k0", "as:A"]
    assert paths[1] == ["card:X", "pawn:k0", "as:K"]
    assert paths[2] == ["card:X", "pawn:r3", "field:r8"]
    # Walks that land elsewhere need no kind: the field says it.
    assert option_paths("dog", ["X=5:r3-r8", "X=Q:r3-r15"], 0) == [
        ["card:X", "pawn:r3", "field:r8"],
        ["card:X", "pawn:r3", "field:r15"],
    ]
    assert len({tuple(p) for p in paths}) == len(paths)


def test_carcassonne_turns_become_clicks() -> None:
    assert option_paths("carcassonne", ["0,-1@90", "0,-1@180", "2,0@0"], 0) == [
        ["cell:0,-1", "turn:90"],
        ["cell:0,-1", "turn:180"],
        ["cell:2,0", "turn:0"],
    ]
    figures = option_paths("carcassonne", ["none", "follower:city0", "big:city0", "pig:field1"], 0)
    assert figures == [
        ["figure:none"],
        ["figure:city0", "kind:follower"],
        ["figure:city0", "kind:big"],
        ["figure:field1"],
    ]


async def test_a_tile_and_its_figure_from_the_page(service: TableService) -> None:
    opened = await service.create(7, 8, "carcassonne", 100, "Ann", players=2, seed=4)
    table = opened.table.id
    await service.add_bot(table, 100)
    await service.start_game(table, 100)
    async with live_server(service) as live, live.page() as page:
        await page.hello(table, session(100, table))
        state = await page.next("state")
        if not state["you"]["options"]:  # the bot began: wait for Ann's turn
            state = await page.state_at(state["version"] + 1)
        place = state["you"]["options"][0]
        assert place["path"][0].startswith("cell:")
        assert state["you"]["targets"][place["path"][1]]  # "turn:…" in words
        await page.move(state["version"], place["path"])
        played = (await page.next("played"))["text"]
        # Told as the thread and the page's list tell it, not by a Discord image's cell number.
        assert played.startswith("Played: Ann places a tile"), played
        assert "Cell" not in played
        figure = await page.state_at(state["version"] + 1)
        assert figure["public"]["phase"] == "figure"
        paths = [o["path"] for o in figure["you"]["options"]]
        assert ["figure:none"] in paths
        spot = next(p for p in paths if p != ["figure:none"])
        await page.move(figure["version"], spot)
        assert (await page.next("played"))["text"]
        after = await page.state_at(figure["version"] + 1)
        assert any(
            f["x"] == int(place["path"][0][5:].split(",")[0]) for f in after["public"]["figures"]
        )
