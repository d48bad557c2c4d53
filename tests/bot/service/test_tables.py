"""The table service on the toy game: lobby, play, errors, versions, leaving, bots, restarts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.model.effects import Effects
from bot.service import (
    AlreadySeated,
    BadSeat,
    CannotStart,
    IllegalMoveError,
    InvalidTableOptions,
    NotHost,
    NotSeated,
    NotYourTurn,
    Phase,
    StaleVersion,
    TableError,
    TableFull,
    TableNotFound,
    TableService,
    WrongPhase,
)
from bot.storage.base import Storage
from bot.storage.sqlite import SqliteStorage
from tests.bot.conftest import load_game

GUILD, CHANNEL = 100, 200
ANN, BOB, CID, DEE, EVE = 1, 2, 3, 4, 5


async def _lobby(service: TableService, players: int = 2, **kwargs: Any) -> int:
    effects = await service.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=players, **kwargs)
    return effects.table.id


async def _started(service: TableService, players: int = 2, **kwargs: Any) -> Effects:
    table_id = await _lobby(service, players, **kwargs)
    for user, name in [(BOB, "Bob"), (CID, "Cid"), (DEE, "Dee")][: players - 1]:
        await service.join(table_id, user, name)
    return await service.start_game(table_id, ANN)


async def _stored(storage: Storage, table_id: int) -> tuple[Any, ...]:
    """Everything storage holds about a table, to show an operation changed nothing."""
    return (await storage.load_table(table_id), await storage.load_log(table_id))


def _first_legal(info_moves: tuple[str, ...]) -> str:
    assert info_moves, "expected a decision to be owed"
    return info_moves[0]


async def _play_out(service: TableService, table_id: int, users: list[int]) -> list[Effects]:
    """Every person plays their first legal move until the game ends."""
    results = []
    for _ in range(500):
        table = await service.get(table_id)
        if table.phase != Phase.PLAYING:
            return results
        for user in users:
            info = await service.private_info(table_id, user)
            if info.to_act:
                results.append(
                    await service.act(
                        table_id, user, _first_legal(info.legal_moves), info.table.version
                    )
                )
                break
        else:
            raise AssertionError("nobody owes a decision in a running game")
    raise AssertionError("the game did not end")


async def test_whole_lifecycle_with_people_and_a_bot(service: TableService) -> None:
    table_id = await _lobby(service, players=3, options={"target": 6})
    await service.join(table_id, BOB, "Bob")
    lobby = await service.add_bot(table_id, ANN, "easy")
    labels = [lobby.table.seat_label(s.index) for s in lobby.table.seats]
    assert [str(label) for label in labels] == ["Ann", "Bob", "Bot 3"]
    assert lobby.table.seats[2].bot_level == "easy"
    started = await service.start_game(table_id, ANN)
    assert started.table.phase == Phase.PLAYING
    assert started.public[0].kind == "started"
    # Both people owe an exchange pick now and are pinged; the bot already picked.
    assert sorted(started.pings) == [ANN, BOB]
    assert {p.user_id for p in started.private if p.kind == "your_turn"} == {ANN, BOB}
    results = await _play_out(service, table_id, [ANN, BOB])
    final = await service.get(table_id)
    assert final.phase == Phase.FINISHED
    assert final.winners
    assert results[-1].public[-1].finished
    assert results[-1].public[-1].finished
    # The record is complete: replaying the stored log gives the same finished game.
    log = await service.storage.load_log(table_id)
    assert len(log) == final.version - started.table.extra["started_version"]
    assert [e.version for e in log] == list(range(log[0].version, final.version + 1))


async def test_several_tables_per_channel_and_guild(service: TableService) -> None:
    a = await _lobby(service)
    b = await _lobby(service)
    other = (await service.create(GUILD, CHANNEL + 1, "toy", BOB, "Bob")).table.id
    elsewhere = (await service.create(GUILD + 1, CHANNEL, "toy", BOB, "Bob")).table.id
    assert [t.id for t in await service.list_tables(GUILD, CHANNEL)] == [a, b]
    assert [t.id for t in await service.list_tables(GUILD)] == [a, b, other]
    assert [t.id for t in await service.list_tables(GUILD + 1)] == [elsewhere]
    await service.abandon(a, ANN)
    assert [t.id for t in await service.list_tables(GUILD, CHANNEL)] == [b]
    assert [t.id for t in await service.list_tables(GUILD, CHANNEL, active=False)] == [a, b]


async def test_join_by_seat_and_team(service: TableService) -> None:
    table_id = await _lobby(service, players=4, options={"teams": True})
    assert await service.teams(table_id) == [[0, 2], [1, 3]]
    await service.join(table_id, BOB, "Bob", team=0)  # team 0 = seats 1 and 3 (0, 2): Ann has 0
    table = await service.get(table_id)
    assert table.seat_of(BOB) is not None
    assert table.seat_of(BOB).index == 2  # type: ignore[union-attr]
    with pytest.raises(TableFull, match="Team 1 is full"):
        await service.join(table_id, CID, "Cid", team=0)
    await service.join(table_id, CID, "Cid", seat=3)
    with pytest.raises(TableFull, match="Seat 4 is taken"):
        await service.join(table_id, DEE, "Dee", seat=3)
    with pytest.raises(BadSeat, match="no team 3"):
        await service.join(table_id, EVE, "Eve", team=2)
    with pytest.raises(AlreadySeated):
        await service.join(table_id, BOB, "Bob")
    with pytest.raises(CannotStart, match="All 4 seats"):
        await service.start_game(table_id, ANN)


async def test_free_for_all_starts_with_the_seats_taken(service: TableService) -> None:
    table_id = await _lobby(service, players=4)
    await service.join(table_id, BOB, "Bob", seat=3)
    started = await service.start_game(table_id, ANN)
    assert started.table.players == 2
    assert [(s.index, s.user_id) for s in started.table.seats] == [(0, ANN), (1, BOB)]


async def test_bad_requests_get_clear_errors_and_change_nothing(
    service: TableService, storage: Storage
) -> None:
    table_id = await _lobby(service)
    lobby_before = await _stored(storage, table_id)
    with pytest.raises(WrongPhase, match="still in its lobby"):
        await service.act(table_id, ANN, "P:1", 1)
    with pytest.raises(NotHost):
        await service.start_game(table_id, BOB)
    with pytest.raises(CannotStart, match="2, 3 and 4 players; 1 is seated"):
        await service.start_game(table_id, ANN)
    with pytest.raises(NotHost):
        await service.add_bot(table_id, BOB)
    with pytest.raises(InvalidTableOptions, match="bot level"):
        await service.add_bot(table_id, ANN, "godlike")
    with pytest.raises(BadSeat, match="not a bot seat"):
        await service.remove_bot(table_id, ANN, 1)
    assert await _stored(storage, table_id) == lobby_before

    await service.join(table_id, BOB, "Bob")
    started = await service.start_game(table_id, ANN)
    version = started.table.version
    before = await _stored(storage, table_id)
    bad: list[tuple[type[TableError], str, Any]] = [
        (TableNotFound, "no table", service.act(table_id + 99, ANN, "G:1", version)),
        (NotSeated, "not playing", service.act(table_id, EVE, "G:1", version)),  # spectator
        (StaleVersion, "game moved on", service.act(table_id, ANN, "G:1", version - 1)),
        (StaleVersion, "game moved on", service.act(table_id, ANN, "G:1", version + 5)),
        (IllegalMoveError, "not a legal move", service.act(table_id, ANN, "P:9", version)),
        (IllegalMoveError, "not a legal move", service.act(table_id, ANN, "garbage", version)),
        (WrongPhase, "already being played", service.join(table_id, CID, "Cid")),
        (NotSeated, "no seat", service.leave(table_id, EVE)),
        (NotHost, "host", service.kick(table_id, BOB, ANN)),
        (NotHost, "host or a moderator", service.abandon(table_id, BOB)),
    ]
    for error, message, call in bad:
        with pytest.raises(error, match=message):
            await call
    assert await _stored(storage, table_id) == before

    # Exchange over: now only seat 0 may play.
    ann = await service.private_info(table_id, ANN)
    await service.act(table_id, ANN, ann.legal_moves[0], ann.table.version)
    bob = await service.private_info(table_id, BOB)
    await service.act(table_id, BOB, bob.legal_moves[0], bob.table.version)
    table = await service.get(table_id)
    before = await _stored(storage, table_id)
    bob = await service.private_info(table_id, BOB)
    assert not bob.to_act
    with pytest.raises(NotYourTurn):
        await service.act(table_id, BOB, "P:1", table.version)
    assert await _stored(storage, table_id) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"options": {"target": 7}}, "option target cannot be 7; it can be 6, 12 and 30"),
        ({"options": {"speed": 1}}, "no option speed; the options are target and teams"),
        ({"players": 9}, "toy is played by 2, 3 and 4 players, not 9"),
        ({"turn_time": 17}, "turn time must be one of"),
        ({"absent_policy": "ghost"}, "absent-player rule"),
        ({"players": 3, "options": {"teams": True}}, "option teams=True needs 4 players"),
    ],
)
async def test_out_of_range_options_are_refused(
    service: TableService, storage: Storage, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidTableOptions, match=message):
        await service.create(GUILD, CHANNEL, "toy", ANN, "Ann", **kwargs)
    assert await storage.list_tables(GUILD, active=False) == []


async def test_unknown_game_is_refused(service: TableService) -> None:
    with pytest.raises(InvalidTableOptions, match="no game called chess"):
        await service.create(GUILD, CHANNEL, "chess", ANN, "Ann")


async def test_many_concurrent_acts_on_one_turn_apply_exactly_once(
    service: TableService, storage: Storage
) -> None:
    started = await _started(service)
    table_id, version = started.table.id, started.table.version
    ann = await service.private_info(table_id, ANN)
    moves = [ann.legal_moves[i % len(ann.legal_moves)] for i in range(20)]
    results = await asyncio.gather(
        *(service.act(table_id, ANN, m, version) for m in moves), return_exceptions=True
    )
    applied = [r for r in results if isinstance(r, Effects)]
    assert len(applied) == 1
    assert all(isinstance(r, StaleVersion) for r in results if not isinstance(r, Effects))
    stale = next(r for r in results if isinstance(r, StaleVersion))
    assert stale.text("en") == "The game moved on meanwhile; look at the newest board."
    assert [e.seat for e in await storage.load_log(table_id)] == [0]


async def test_concurrent_acts_from_two_processes_apply_exactly_once(tmp_path: Any) -> None:
    stores = [SqliteStorage(str(tmp_path / "shared.sqlite3"), single_writer=False) for _ in "ab"]
    for store in stores:
        await store.open()
    one, two = (
        TableService(s, clock=FakeClock(), choose_bot_move=random_chooser, load_game=load_game)
        for s in stores
    )
    try:
        started = await _started(one)
        table_id, version = started.table.id, started.table.version
        ann = await two.private_info(table_id, ANN)
        move = ann.legal_moves[0]
        results = await asyncio.gather(
            *(svc.act(table_id, ANN, move, version) for svc in (one, two, one, two)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Effects) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        # Both processes agree on the game afterwards and Bob can pick in either.
        bob = await one.private_info(table_id, BOB)
        await two.act(table_id, BOB, bob.legal_moves[0], bob.table.version)
        assert (await one.public_view(table_id)) == (await two.public_view(table_id))
    finally:
        for s in stores:
            await s.close()


async def test_an_exchange_button_stays_valid_until_that_seat_picks(service: TableService) -> None:
    started = await _started(service, players=3)
    table_id, version = started.table.id, started.table.version
    ann = await service.private_info(table_id, ANN)
    await service.act(
        table_id, BOB, (await service.private_info(table_id, BOB)).legal_moves[0], version
    )
    # Bob's pick does not make Ann's button (drawn at the same version) stale...
    await service.act(table_id, ANN, ann.legal_moves[0], version)
    # ...but Ann's own pick does.
    with pytest.raises(StaleVersion):
        await service.act(table_id, ANN, ann.legal_moves[-1], version)


async def test_public_effects_never_reveal_hands_or_picks(service: TableService) -> None:
    started = await _started(service, players=3)
    results = [started, *await _play_out(service, started.table.id, [ANN, BOB, CID])]
    hands_seen: set[str] = set()
    for effects in results:
        for update in effects.public:
            blob = json.dumps(
                [update.message.text("en"), update.view, update.move, update.events], default=str
            )
            assert '"hand"' not in blob
            assert "my_pick" not in blob
            assert "G:" not in blob
            assert "passes a" not in blob  # the private pick event's text
            if update.view is not None:
                assert update.view["viewer"] is None
        for private in effects.private:
            assert private.view is None or private.view["viewer"] == private.seat
            if private.view is not None:
                hands_seen.update(private.view.get("hand", []))
    assert hands_seen  # the private side did carry hands


async def test_received_card_is_told_privately(service: TableService) -> None:
    started = await _started(service)
    table_id, version = started.table.id, started.table.version
    for user in (ANN, BOB):
        info = await service.private_info(table_id, user)
        effects = await service.act(table_id, user, info.legal_moves[0], version)
    received = [p for p in effects.private if p.kind == "received"]
    assert {p.user_id for p in received} == {ANN, BOB}
    assert all("Your partner passed you" in p.message.text("en") for p in received)


async def test_leaving_in_play_under_auto_policy(service: TableService, storage: Storage) -> None:
    started = await _started(service, players=3)
    table_id = started.table.id
    effects = await service.leave(table_id, BOB)
    assert "the game now moves for their seat" in effects.public[0].message.text("en")
    table = await service.get(table_id)
    bob_seat = next(s for s in table.seats if s.former_user_id == BOB)
    assert bob_seat.left
    kinds = [(e.kind, e.seat) for e in await storage.load_log(table_id)]
    assert ("leave", bob_seat.index) in kinds
    assert ("auto", bob_seat.index) in kinds  # the engine made Bob's exchange pick
    with pytest.raises(NotSeated):
        await service.act(table_id, BOB, "G:1", table.version)
    await _play_out(service, table_id, [ANN, CID])
    assert (await service.get(table_id)).phase == Phase.FINISHED


async def test_leaving_in_play_under_bot_policy_and_kick(service: TableService) -> None:
    started = await _started(service, players=3, absent_policy="bot")
    table_id = started.table.id
    effects = await service.kick(table_id, ANN, CID)
    assert "Cid was removed from the game; a bot plays" in effects.public[0].message.text("en")
    table = await service.get(table_id)
    assert [s.is_bot for s in table.seats] == [False, False, True]
    await _play_out(service, table_id, [ANN, BOB])
    assert (await service.get(table_id)).phase == Phase.FINISHED


async def test_last_person_leaving_abandons_and_host_passes_on(service: TableService) -> None:
    table_id = await _lobby(service, players=3)
    await service.join(table_id, BOB, "Bob")
    effects = await service.leave(table_id, ANN)
    assert effects.table.host_id == BOB
    assert "Bob is the host now" in effects.public[0].message.text("en")
    await service.join(table_id, CID, "Cid")
    await service.add_bot(table_id, BOB)
    started = await service.start_game(table_id, BOB)
    handed = await service.leave(started.table.id, BOB)
    assert handed.table.host_id == CID
    assert "Cid is the host now" in handed.public[0].message.text("en")
    last = await service.leave(started.table.id, CID)
    assert last.table.phase == Phase.ABANDONED
    assert last.public[0].kind == "abandoned"


async def test_moderator_can_abandon_and_thread_is_kept(service: TableService) -> None:
    table_id = (await _started(service)).table.id
    record = await service.set_thread(table_id, 777)
    assert record.thread_id == 777
    effects = await service.abandon(table_id, EVE, can_manage=True)
    assert effects.table.phase == Phase.ABANDONED
    assert (await service.get(table_id)).thread_id == 777
    with pytest.raises(WrongPhase, match="already over"):
        await service.abandon(table_id, ANN)


async def test_a_restarted_service_continues_from_storage(
    storage: Storage, service: TableService
) -> None:
    started = await _started(service, players=3)
    table_id = started.table.id
    ann = await service.private_info(table_id, ANN)
    await service.act(table_id, ANN, ann.legal_moves[0], ann.table.version)
    view_before = await service.public_view(table_id)
    fresh = TableService(storage, choose_bot_move=random_chooser, load_game=load_game)
    assert await fresh.public_view(table_id) == view_before
    await _play_out(fresh, table_id, [ANN, BOB, CID])
    assert (await fresh.get(table_id)).phase == Phase.FINISHED


async def test_games_are_reproducible_from_the_seed(storage: Storage) -> None:
    async def play(seed: int) -> list[str]:
        svc = TableService(storage, choose_bot_move=random_chooser, load_game=load_game)
        table_id = (await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", seed=seed)).table.id
        await svc.add_bot(table_id, ANN)
        await svc.start_game(table_id, ANN)
        await _play_out(svc, table_id, [ANN])
        return [e.text for e in await storage.load_log(table_id)]

    assert await play(42) == await play(42)


async def test_deferred_bots_answer_at_once_and_deliver_each_bot_turn(
    storage: Storage, recorder: Any
) -> None:
    svc = TableService(
        storage,
        listener=recorder,
        choose_bot_move=random_chooser,
        load_game=load_game,
        defer_bots=True,
    )
    table_id = (await svc.create(GUILD, CHANNEL, "toy", ANN, "Ann", players=3)).table.id
    await svc.add_bot(table_id, ANN)
    await svc.add_bot(table_id, ANN)
    started = await svc.start_game(table_id, ANN)
    assert [u.kind for u in started.public] == ["started"]  # the bots' picks come later
    await svc.idle()
    assert [e.public[0].message.text("en") for e in recorder.effects] == [
        "Bot 2 chose a card to pass.",
        "Bot 3 chose a card to pass.",
    ]
    ann = await svc.private_info(table_id, ANN)
    answered = await svc.act(table_id, ANN, ann.legal_moves[0], ann.table.version)
    assert len(answered.public) == 1  # only Ann's own action
    await svc.idle()
    table = await svc.get(table_id)
    # Every bot turn was its own delivery, and Ann owes the next decision.
    assert len(recorder.effects) == 2 + table.log_length - 3
    assert (await svc.private_info(table_id, ANN)).to_act
    await svc.stop()


async def test_a_whole_game_on_each_storage_back_end(any_storage: Storage) -> None:
    svc = TableService(any_storage, choose_bot_move=random_chooser, load_game=load_game)
    guild, user = 2**62, 2**61  # Discord-sized ids
    table_id = (await svc.create(guild, CHANNEL, "toy", user, "Ann", players=3)).table.id
    await svc.join(table_id, ANN, "Bob")
    await svc.add_bot(table_id, user)
    await svc.start_game(table_id, user)
    await _play_out(svc, table_id, [user, ANN])
    fresh = TableService(any_storage, choose_bot_move=random_chooser, load_game=load_game)
    table = await fresh.get(table_id)
    assert table.phase == Phase.FINISHED
    assert [t.id for t in await fresh.list_tables(guild, active=False)] == [table_id]
    assert await fresh.public_view(table_id) == await svc.public_view(table_id)
