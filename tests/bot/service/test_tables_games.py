"""Whole games of the real engines through the table service, over in-memory SQLite.

A person (choosing with a seeded generator, and playing a split 7 one segment at a time when
the engine offers segments) plays against bots until the game ends; then the stored log must
replay to the same finished game, and no public update may have revealed a hand or a pick.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from bot.bots.choosers import engine_chooser, random_chooser
from bot.model.effects import Effects, PublicUpdate
from bot.service import Phase, StaleVersion, TableService
from bot.storage.base import Storage
from bot.storage.log_rows import CHUNK, chunk_rows
from i18n.events import card_word

GUILD, CHANNEL = 7, 8

CASES = [
    pytest.param("tock", 2, {}, 1, id="tock-2-ffa"),
    pytest.param("tock", 4, {"game_type": "2v2"}, 2, id="tock-2v2-two-people"),
    pytest.param("dog", 4, {}, 2, id="dog-4-two-people"),
    pytest.param("carcassonne", 2, {}, 1, id="carcassonne-2"),
    pytest.param(
        "carcassonne",
        3,
        {"river": True, "inns_cathedrals": "full", "traders_builders": "full"},
        1,
        id="carcassonne-3-expansions",
    ),
]


def assert_public(update: PublicUpdate) -> None:
    """A public update carries nothing secret: no hand, no pick, no received card."""
    blob = json.dumps(
        [update.message.text("en"), update.move, update.events, update.view], default=str
    )
    assert "G:" not in blob, update.message.text("en")
    assert all(event["public"] for event in update.events)
    view = update.view
    if view is None:
        return
    assert view["viewer"] is None
    assert "hands" not in view
    assert "exchange" not in view
    assert not isinstance(view.get("hand"), list)
    assert view.get("my_pick") is None
    assert view.get("received") is None
    assert not isinstance(view.get("draw"), list)
    assert all(event["public"] for event in view.get("events", []))


async def _seat(
    service: TableService,
    game: str,
    players: int,
    options: Mapping[str, Any],
    people: int,
    seed: int,
) -> Effects:
    created = await service.create(
        GUILD, CHANNEL, game, 1, "P1", players=players, options=options, seed=seed
    )
    table_id = created.table.id
    for user in range(2, people + 1):
        await service.join(table_id, user, f"P{user}")
    for _ in range(players - people):
        await service.add_bot(table_id, 1, "easy")
    return await service.start_game(table_id, 1)


async def play_whole_game(
    service: TableService,
    game: str,
    players: int,
    options: Mapping[str, Any],
    people: int,
    seed: int,
) -> tuple[int, list[Effects], int]:
    """Play to the end; return the table id, every Effects, and how many 7 segments were sent."""
    started = await _seat(service, game, players, options, people, seed)
    table_id = started.table.id
    results, segments = await play_to_the_end(service, table_id, people, random.Random(seed))
    return table_id, [started, *results], segments


async def play_to_the_end(
    service: TableService,
    table_id: int,
    people: int,
    rng: random.Random,
    prefer: Callable[[str], float] | None = None,
) -> tuple[list[Effects], int]:
    """Let users 1..``people`` play random legal moves (among those ``prefer`` scores best,
    if given) until the game is over; return every Effects and how many 7 segments were
    sent."""
    results: list[Effects] = []
    segments = 0
    for _ in range(5_000):
        table = await service.get(table_id)
        if table.phase != Phase.PLAYING:
            return results, segments
        for user in range(1, people + 1):
            info = await service.private_info(table_id, user)
            if info.to_act:
                break
        else:
            raise AssertionError("nobody owes a decision in a running game")
        assert info.view is not None
        assert info.view["viewer"] == info.seat
        starts = [s for group in info.seven_starts.values() for s in group]
        in_seven = info.view.get("seven") is not None
        if prefer is not None:
            best = max(prefer(m) for m in info.legal_moves)
            move = rng.choice([m for m in info.legal_moves if prefer(m) == best])
        elif starts and rng.random() < 0.5:
            move = rng.choice(starts)
        else:
            move = rng.choice(info.legal_moves)
        segments += bool(starts and move in starts) or in_seven
        results.append(await service.act(table_id, user, move, info.table.version))
        if in_seven or move in starts:
            # The segment's button is spent: the same version can't act again.
            with pytest.raises(StaleVersion):
                await service.act(table_id, user, move, info.table.version)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "players", "options", "people"), CASES)
async def test_a_whole_game_through_the_service(
    service: TableService,
    storage: Storage,
    game: str,
    players: int,
    options: dict[str, Any],
    people: int,
) -> None:
    table_id, results, segments = await play_whole_game(service, game, players, options, people, 11)
    if game == "tock":
        assert segments > 0  # a split 7 was sent one segment at a time at least once
    table = await service.get(table_id)
    assert table.phase == Phase.FINISHED
    last = results[-1].public[-1]
    assert last.finished
    assert list(last.winners) == list(table.winners)
    for effects in results:
        for update in effects.public:
            assert_public(update)
        for private in effects.private:
            assert private.user_id in range(1, people + 1)
            seat = effects.table.seat_of(private.user_id)
            assert seat is not None
            assert private.seat == seat.index
    # The stored record alone rebuilds the same finished game.
    fresh = TableService(storage, choose_bot_move=random_chooser)
    assert await fresh.public_view(table_id) == last.view
    assert len(await storage.load_log(table_id)) == table.log_length


async def test_team_exchange_picks_stay_private_and_arrive_privately(
    service: TableService,
) -> None:
    started = await _seat(service, "tock", 4, {"game_type": "2v2"}, 4, 5)
    table_id = started.table.id
    assert sorted(started.pings) == [1, 2, 3, 4]  # everybody owes a pick
    version = started.table.version
    picks = {}
    for user in (1, 2, 3, 4):
        info = await service.private_info(table_id, user)
        picks[user] = info.legal_moves[0]
        effects = await service.act(table_id, user, picks[user], version)
        for update in effects.public:
            assert_public(update)
            assert picks[user] not in update.message.text("en")
    received = {p.user_id: p.message.text("en") for p in effects.private if p.kind == "received"}
    assert sorted(received) == [1, 2, 3, 4]
    # Partners sit opposite: user 1 (seat 0) receives what user 3 (seat 2) passed.
    passed = card_word(picks[3].removeprefix("G:"), article=True).text("en")
    assert received[1].endswith(f"{passed}.")


async def test_leaving_mid_game_lets_the_engine_play_the_seat(service: TableService) -> None:
    started = await _seat(service, "dog", 4, {}, 2, 9)
    table_id = started.table.id
    effects = await service.leave(table_id, 2)
    table = effects.table
    assert any(s.left for s in table.seats)
    assert table.phase == Phase.PLAYING
    while table.phase == Phase.PLAYING:
        info = await service.private_info(table_id, 1)
        assert info.to_act
        effects = await service.act(table_id, 1, info.legal_moves[0], info.table.version)
        table = effects.table
    assert table.phase == Phase.FINISHED


async def test_the_engine_bots_play_a_whole_game(storage: Storage) -> None:
    """``engine.bots`` answers in its own forms (here whole Carcassonne turns)."""
    game, players = "carcassonne", 2
    svc = TableService(storage, choose_bot_move=engine_chooser(0.01), require_person=False)
    table_id = (
        await svc.create(GUILD, CHANNEL, game, 1, "P1", players=players, seed=3, seat_host=False)
    ).table.id
    for _ in range(players):
        await svc.add_bot(table_id, 1, "easy")
    effects = await svc.start_game(table_id, 1)
    assert effects.table.phase == Phase.FINISHED
    for update in effects.public:
        assert_public(update)
    fresh = TableService(storage, choose_bot_move=random_chooser)
    assert await fresh.public_view(table_id) == effects.public[-1].view


async def test_a_cold_load_starts_from_a_snapshot(storage: Storage) -> None:
    svc = TableService(storage, choose_bot_move=random_chooser, snapshot_every=40)
    table_id = (await _seat(svc, "tock", 2, {}, 1, 21)).table.id
    while (await svc.get(table_id)).log_length < 130:
        info = await svc.private_info(table_id, 1)
        await svc.act(table_id, 1, info.legal_moves[0], info.table.version)
    table = await svc.get(table_id)
    snapshot = await storage.load_snapshot(table_id)
    assert snapshot is not None
    assert table.log_length - 40 < snapshot[0] <= table.log_length
    # Spoil the head of the log: only a load that starts from the snapshot still works.
    head = await storage.load_log(table_id)
    spoilt = [replace(e, text="spoilt") if e.index < 5 else e for e in head[:CHUNK]]
    [(_table, _chunk, data)] = chunk_rows(table_id, spoilt)
    await storage.db.execute(  # type: ignore[attr-defined]
        "UPDATE move_chunks SET data = ? WHERE table_id = ? AND chunk = 0", (data, table_id)
    )
    fresh = TableService(storage, choose_bot_move=random_chooser, snapshot_every=40)
    assert await fresh.public_view(table_id) == await svc.public_view(table_id)
    assert await fresh.private_info(table_id, 1) == await svc.private_info(table_id, 1)


async def test_carcassonne_final_scoring_reads_one_line_per_feature(service: TableService) -> None:
    _table_id, results, _ = await play_whole_game(service, "carcassonne", 2, {}, 2, 11)
    final = results[-1].public[-1]
    scored = [e for e in final.events if e["kind"] == "score"]
    assert len(scored) > 1, "the final scoring scores several features"
    for locale in ("en", "de", "hu"):
        lines = final.message.text(locale).splitlines()
        # What the player did, each scored feature, then the final standing: a line each.
        assert len(lines) == 1 + len(scored) + 1, lines
        assert all(line.rstrip().endswith(".") for line in lines), lines
