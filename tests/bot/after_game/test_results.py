"""Results and ratings of finished tables: what is stored, how ratings move, rebuilding them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.after_game.game_result import GameResult, SeatResult, build_result
from bot.after_game.ratings import groups, rate_result, rebuild
from bot.bots.choosers import random_chooser
from bot.model.table import Phase, Seat, TableRecord
from bot.service import TableService
from bot.storage.base import Storage
from tests.bot.service.test_tables_games import GUILD, play_whole_game

GAMES = [
    pytest.param("tock", 2, {}, 1, id="tock-ffa"),
    pytest.param("tock", 4, {"game_type": "2v2"}, 2, id="tock-2v2"),
    pytest.param("dog", 4, {}, 2, id="dog"),
    pytest.param(
        "carcassonne",
        3,
        {"inns_cathedrals": "full", "traders_builders": "full"},
        1,
        id="carcassonne-expansions",
    ),
]


@pytest.mark.parametrize(("game", "players", "options", "people"), GAMES)
async def test_a_finished_table_stores_its_result_and_moves_ratings(
    service: TableService,
    storage: Storage,
    game: str,
    players: int,
    options: dict[str, Any],
    people: int,
) -> None:
    table_id, _effects, _segments = await play_whole_game(
        service, game, players, options, people, 11
    )
    table = await service.get(table_id)
    result = await storage.load_result(table_id)
    assert result is not None
    assert result.moves == table.log_length
    winners = {s.seat for s in result.seats if s.place == 1}
    assert winners == set(table.winners)
    assert next(s.place for s in result.standings()) == 1
    if game == "carcassonne":
        view = await service.public_view(table_id)
        assert view is not None
        for seat in result.seats:
            points = result.categories.get(str(seat.seat), {})
            summed = sum(v for k, v in points.items() if k not in ("inn", "cathedral"))
            assert summed == view["scores"][seat.seat] == seat.score
        assert list(result.timeline[-1][1:]) == view["scores"]
        steps = [row[0] for row in result.timeline]
        assert steps == sorted(steps)
    else:
        assert result.hands >= 1
        homes = [colour for _step, colour in result.home]
        for seat in table.winners:
            assert homes.count(seat) == 4, "every pawn of a winner reached home"
        assert result.home == tuple(sorted(result.home, key=lambda h: h[0]))
    # Ratings: winners up, losers down, partners together; bots rated per level.
    ratings = {r.player: r for r in await storage.leaderboard(GUILD, game, 20)}
    changes = await storage.rating_changes(table_id)
    assert {p: after for p, (_before, after) in changes.items()} == {
        p: r.mu for p, r in ratings.items()
    }
    assert all(before == 25.0 for before, _after in changes.values())
    for seat in result.seats:
        assert seat.player is not None
        rating = ratings[seat.player]
        places = {s.place for s in result.seats if s.player == seat.player}
        if len(places) > 1:
            continue  # one bot level on both sides: its copies are averaged
        if seat.place == 1:
            assert rating.mu > 25
            assert rating.wins == 1
        elif seat.place == max(s.place for s in result.seats):
            assert rating.mu < 25
            assert rating.wins == 0
        assert rating.sigma < 25 / 3
        assert rating.games == 1
    if result.teams:
        sides = [{result.seat(s).player for s in team} for team in result.teams]
        for side in sides:
            if any(side & other for other in sides if other is not side):
                continue  # a bot level that played on both sides
            assert len({ratings[p or ""].mu for p in side}) == 1, "partners move together"


async def test_rebuilding_gives_identical_ratings(service: TableService, storage: Storage) -> None:
    for seed in (3, 4):
        await play_whole_game(service, "carcassonne", 2, {}, 1, seed)
        await play_whole_game(service, "tock", 4, {"game_type": "2v2"}, 2, seed)
    before = {g: await storage.leaderboard(GUILD, g, 50) for g in ("carcassonne", "tock")}
    assert all(before.values())
    rebuilt = await service.rebuild_ratings()
    after = {g: await storage.leaderboard(GUILD, g, 50) for g in ("carcassonne", "tock")}
    assert after == before  # equal to the last bit: the same floats, the same order
    assert dict(rebuilt[(GUILD, "tock")].items()) == {r.player: r for r in before["tock"]}
    person = await storage.rating(GUILD, "tock", "u:1")
    assert person is not None
    assert person[1].games == 2


async def test_an_abandoned_table_has_no_result(service: TableService, storage: Storage) -> None:
    created = await service.create(GUILD, 8, "dog", 1, "P1", seed=2)
    table_id = created.table.id
    for _ in range(3):
        await service.add_bot(table_id, 1, "easy")
    await service.start_game(table_id, 1)
    await service.abandon(table_id, 1)
    assert (await service.get(table_id)).phase == Phase.ABANDONED
    assert await storage.load_result(table_id) is None
    assert await service.result(table_id) is None
    assert await storage.leaderboard(GUILD, "dog") == []


async def test_a_person_who_left_is_placed_last_and_rated_down(
    service: TableService, storage: Storage
) -> None:
    created = await service.create(GUILD, 8, "carcassonne", 1, "P1", players=3, seed=4)
    table_id = created.table.id
    await service.join(table_id, 2, "P2")
    await service.join(table_id, 3, "P3")
    await service.start_game(table_id, 1)
    await service.leave(table_id, 3)
    table = await service.get(table_id)
    while table.phase == Phase.PLAYING:
        for user in (1, 2):
            info = await service.private_info(table_id, user)
            if info.to_act:
                table = (
                    await service.act(table_id, user, info.legal_moves[0], info.table.version)
                ).table
                break
    result = await storage.load_result(table_id)
    assert result is not None
    gone = next(s for s in result.seats if s.player == "u:3")
    assert gone.left
    assert gone.place == 3
    assert all(s.place < 3 for s in result.seats if s.player != "u:3")
    rating = await storage.rating(GUILD, "carcassonne", "u:3")
    assert rating is not None
    assert rating[1].mu < 25
    assert rating[0] == 3


def _record(**changes: Any) -> TableRecord:
    seats = (Seat(0, user_id=1, name="Ann"), Seat(1, name="Bot", bot_level="hard"))
    base = TableRecord(1, GUILD, 8, "carcassonne", {}, 1, 1, seats, phase=Phase.FINISHED)
    return base.with_changes(**changes)


def test_a_hinted_table_is_never_rated() -> None:
    view = {"seats": [0, 1], "scores": [3, 1], "winners": [0], "events": []}
    result = build_result(_record(extra={"hints": True}), view, iter(()), 0.0)
    assert not result.rated
    assert rate_result(result, {}) == {}
    plain = build_result(_record(), view, iter(()), 0.0)
    assert plain.rated
    after = rate_result(plain, {})
    assert after["u:1"].mu > after["bot:hard"].mu


def test_two_bots_of_one_level_are_one_rated_player() -> None:
    seats = (
        SeatResult(0, "Ann", 1, "u:1"),
        SeatResult(1, "Bot", 2, "bot:easy"),
        SeatResult(2, "Bot", 3, "bot:easy"),
    )
    result = GameResult(1, GUILD, 8, "carcassonne", {}, 0.0, seats, (0,))
    assert [players for players, _ in groups(result)] == [["u:1"], ["bot:easy"], ["bot:easy"]]
    after = rate_result(result, {})
    assert set(after) == {"u:1", "bot:easy"}
    assert after["bot:easy"].games == 1
    assert rebuild([result, result])[(GUILD, "carcassonne")]["u:1"].games == 2


async def test_results_recorded_after_a_crash_come_back_at_start(
    storage: Storage, service: TableService
) -> None:
    table_id, _e, _s = await play_whole_game(service, "carcassonne", 2, {}, 1, 7)
    stored = await storage.load_result(table_id)
    assert stored is not None
    # As if the process died between the last move and the result.
    await storage.replace_ratings({}, None)
    db = storage.db  # type: ignore[attr-defined]
    await db.execute("DELETE FROM results")
    assert await storage.finished_without_result() == [table_id]
    fresh = TableService(storage, choose_bot_move=random_chooser)
    await fresh.start()
    await fresh.stop()
    again = await storage.load_result(table_id)
    assert again is not None
    assert again.seats == stored.seats
    assert await storage.finished_without_result() == []


def test_partners_move_together_and_winners_go_up() -> None:
    seats = tuple(
        SeatResult(i, f"P{i}", 1 if i % 2 == 0 else 2, f"u:{i}", team=i % 2) for i in range(4)
    )
    result = GameResult(1, GUILD, 8, "dog", {}, 0.0, seats, (0, 2), teams=((0, 2), (1, 3)))
    after = rate_result(result, {})
    assert after["u:0"] == after["u:2"].__class__("u:0", after["u:2"].mu, after["u:2"].sigma, 1, 1)
    assert after["u:1"].mu == after["u:3"].mu < 25 < after["u:0"].mu
    assert after["u:1"].wins == 0


async def test_the_rebuild_command_recomputes_stored_ratings(tmp_path: Any, capsys: Any) -> None:
    from bot.cli import main
    from bot.storage import open_storage

    url = f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    storage = await open_storage(url)
    service = TableService(storage, choose_bot_move=random_chooser)
    await play_whole_game(service, "carcassonne", 2, {}, 1, 3)
    await play_whole_game(service, "carcassonne", 2, {}, 1, 4)
    before = await storage.leaderboard(GUILD, "carcassonne")
    await storage.replace_ratings({}, None)  # as if the ratings had been lost
    await storage.close()
    assert await asyncio.to_thread(main, ["rebuild-ratings", "--database-url", url]) == 0
    assert "carcassonne: 2 rated players" in capsys.readouterr().out
    storage = await open_storage(url)
    try:
        assert await storage.leaderboard(GUILD, "carcassonne") == before
    finally:
        await storage.close()
