"""Tournaments end to end through the fake Discord: sign-up post, Join / Leave, the host's
start, rounds that open their own threads, standings and the champion's post.

The players' moves are chosen quickly (greedy race moves, random Carcassonne moves, as the
tests' bots choose) and played through the table service; the posts, threads, buttons and
commands are Discord's. The standings are checked against a computation made here from the
stored results alone.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.model.table import TableError
from bot.tournament.record import TournamentPhase, TournamentRecord
from tests.bot.discord.conftest import RecordingRenderer, World, private_text, running_world
from tests.bot.discord.driving import greedy_chooser
from tests.fakediscord.models import Message
from tests.fakediscord.scripting import ScriptedUser

SAMPLES = Path(os.environ.get("POEPPEL_TOURNAMENT_SAMPLES", "/work/helpers/samples-32"))


def save_sample(name: str, data: bytes) -> None:
    """Keep what a person sees for the closing note (only where the samples folder exists)."""
    if SAMPLES.parent.is_dir():
        SAMPLES.mkdir(exist_ok=True)
        (SAMPLES / name).write_bytes(data)


def signup_post(world: World) -> Message:
    for message in reversed(world.fake.messages(world.channel)):
        ours = message.author.id == world.fake.bot_user.id
        if ours and "tournament #" in message.text and message.components:
            return message
    raise AssertionError("no sign-up post")


async def play_for_people(world: World, record: TournamentRecord) -> TournamentRecord:
    """Race games never end on the engine's automatic actions: here each person's move is
    chosen greedily (as the tests' bots do) and played through the table service, every
    table of the round in turn, until the tournament is over."""
    assert world.desk is not None
    service = world.desk.service
    rng = random.Random(32)
    for _ in range(20_000):
        record = await service.tournaments.get(record.id)
        if record.phase == TournamentPhase.FINISHED:
            await world.desk.deliveries_done()  # the champion's post follows the last result
            return record
        tables = [
            t
            for t in await service.list_tables(record.guild_id)
            if t.extra.get("tournament") == record.id
        ]
        for table in tables:
            for seat in table.seats:
                if seat.user_id is None or seat.left:
                    continue
                info = await service.private_info(table.id, seat.user_id)
                if not info.to_act or not info.legal_moves:
                    continue
                move = greedy_chooser(
                    table.game, info.view or {}, "normal", info.legal_moves, rng.randrange(1 << 30)
                )
                with contextlib.suppress(TableError):
                    await service.act(table.id, seat.user_id, move, info.table.version)
        await service.idle()
        await world.desk.deliveries_done()  # a round's threads follow the round stored
    raise AssertionError(f"the tournament never ended: {record.phase}")


async def expected_points(world: World, record: TournamentRecord) -> dict[str, int]:
    """Points from the stored results: 2 a win, 1 a draw (shared first place), 0 a loss, 2 a
    bye; an entrant's place is its best member's."""
    assert world.desk is not None
    service = world.desk.service
    members = {m: e.key for e in record.state.entrants for m in e.members}
    points: dict[str, int] = defaultdict(int)
    for table_id in (await service.storage.tournament_tables(record.id)).values():
        result = await service.result(table_id)
        assert result is not None, "a tournament table ended without a result"
        best: dict[str, int] = {}
        for seat in result.seats:
            key = members.get(seat.user_id or -1)
            if key is not None:
                best[key] = min(best.get(key, 99), seat.place)
        (a, pa), (b, pb) = best.items()
        points[a] += 2 if pa < pb else int(pa == pb)
        points[b] += 2 if pb < pa else int(pa == pb)
    for round_ in record.state.rounds:
        for key in round_.byes:
            points[key] += 2
    return dict(points)


async def test_a_swiss_carcassonne_tournament_of_seven_to_its_champion(tmp_path: Path) -> None:
    stand_in = RecordingRenderer()
    async with running_world(tmp_path, renderer=stand_in.renderer()) as world:
        players: list[ScriptedUser] = [world.alice, world.bob, world.carol]
        players += [world.fake.add_user(f"p{i}", guild=world.guild) for i in range(4)]
        result = await world.alice.slash(
            world.channel,
            "tournament new",
            game="carcassonne",
            format="swiss",
            seats=2,
            rounds=3,
            turn_time=60,
            bots=True,
        )
        assert "is open for sign-up" in private_text(result, world.alice)
        for user in players:
            answer = await user.click(signup_post(world), label="Join")
            assert "You are signed up" in private_text(answer, user)
        left = await world.bob.click(signup_post(world), label="Leave")
        assert "You left" in private_text(left, world.bob)
        await world.bob.click(signup_post(world), label="Join")
        again = await world.bob.click(signup_post(world), label="Join")
        assert "Already signed up" in private_text(again, world.bob)
        post = signup_post(world)
        assert "Signed up (7)" in post.text
        buttons = [c.get("label") for row in post.components for c in row.get("components", [])]
        save_sample("signup-post.txt", f"{post.text}\n\n[buttons: {buttons}]\n".encode())

        # A season of Carcassonne around today: only a member who manages the server sets it.
        no = await world.alice.slash(
            world.channel,
            "season new",
            game="carcassonne",
            name="Winter",
            start="2027-01-01",
            end="2027-03-31",
        )
        assert "manage the server" in private_text(no, world.alice)
        admin = world.fake.add_user("admin", guild=world.guild, permissions=1 << 5)
        made = await admin.slash(
            world.channel,
            "season new",
            game="carcassonne",
            name="Winter",
            start="2027-01-01",
            end="2027-03-31",
        )
        assert "Season Winter of Carcassonne" in private_text(made, admin)
        refused = await world.bob.slash(world.channel, "tournament host", action="start")
        assert "Only the host" in private_text(refused, world.bob)
        started = await world.alice.slash(world.channel, "tournament host", action="start")
        assert "has started" in private_text(started, world.alice)
        assert world.desk is not None
        record = (await world.desk.service.tournaments.of_guild(world.guild.id))[0]
        record = await play_for_people(world, record)

        rounds = record.state.rounds
        assert len(rounds) == 3
        assert all(len(r.byes) == 1 and len(r.matches) == 3 for r in rounds)
        assert len({k for r in rounds for k in r.byes}) == 3
        met = [frozenset(m.entrants) for r in rounds for m in r.matches]
        assert len(met) == len(set(met))
        table = (await world.desk.service.tournaments.standings(record.id))[1]
        assert {s.key: s.points for s in table} == await expected_points(world, record)
        order = [(-s.points, -s.buchholz, -s.head_to_head, -s.score) for s in table]
        assert order == sorted(order)
        # Each round told the channel where to sit, once, and each table has its thread.
        calls = [m for m in world.fake.messages(world.channel) if "take your seats" in m.text]
        assert len(calls) == 3
        for table_id in (await world.desk.service.storage.tournament_tables(record.id)).values():
            thread_id = (await world.desk.service.get(table_id)).thread_id
            assert thread_id is not None
            assert world.boards(world.fake.channel_of(thread_id)), "a table's thread got no board"
        final = [m for m in world.fake.messages(world.channel) if "is over. " in m.text]
        assert len(final) == 1
        image = next(iter(final[0].file_bytes.values()))
        save_sample("standings-swiss.png", image)
        board = await world.carol.slash(world.channel, "season leaderboard", game="carcassonne")
        lines = private_text(board, world.carol).splitlines()
        assert "Season Winter" in lines[0]
        assert len(lines) == 1 + 7  # everyone played rated games this season
        # The all-time /leaderboard shows the running season beside it ...
        overall = private_text(
            await world.carol.slash(world.channel, "leaderboard", game="carcassonne"), world.carol
        )
        assert "Season Winter" in overall
        # ... and once the season is over, its champion's /stats keep the title.
        world.clock.advance(90 * 86400)
        season_board = await world.desk.service.seasons.board(world.guild.id, "carcassonne")
        assert season_board is not None
        assert season_board.champion is not None
        champion_id = int(season_board.champion.player.removeprefix("u:"))
        champion_user = next(u for u in players if u.id == champion_id)
        stats = await world.carol.slash(world.channel, "stats", member=champion_user)
        assert "Season titles:\nWinter (Carcassonne)" in private_text(stats, world.carol)
        download = await world.carol.slash(world.channel, "tournament record")
        (answer,) = download.visible_to(world.carol)
        assert answer.ephemeral
        data = json.loads(next(iter(answer.file_bytes.values())))
        assert data["standings"][0]["name"] == table[0].name
        assert data["champion"] == data["standings"][0]["entrant"]
        assert len(data["tables"]) == 9
        assert all(entry["record"]["steps"] for entry in data["tables"])
        assert str(world.alice.id) not in json.dumps(data)  # names, never Discord ids
        mine = await world.carol.slash(world.channel, "tournament standings")
        text = private_text(mine, world.carol)
        assert f"1. {table[0].name}" in text


@pytest.mark.slow
async def test_a_knockout_dog_tournament_of_eight_pairs(tmp_path: Path) -> None:
    stand_in = RecordingRenderer()
    async with running_world(tmp_path, renderer=stand_in.renderer()) as world:
        users = [world.alice, world.bob, world.carol]
        users += [world.fake.add_user(f"d{i}", guild=world.guild) for i in range(13)]
        await world.alice.slash(
            world.channel,
            "tournament new",
            game="dog",
            format="knockout",
            seats=4,
            turn_time=60,
            bots=True,
        )
        for first, second in zip(users[::2], users[1::2], strict=True):
            answer = await first.slash(world.channel, "tournament join", partner=second)
            assert "are signed up" in private_text(answer, first)
        assert world.desk is not None
        await world.alice.slash(world.channel, "tournament host", action="start")
        record = (await world.desk.service.tournaments.of_guild(world.guild.id))[0]
        assert len(record.state.entrants) == 8
        record = await play_for_people(world, record)
        assert [len(r.matches) for r in record.state.rounds] == [4, 2, 1]
        service = world.desk.service
        pairs = {frozenset(e.members): e.key for e in record.state.entrants}
        links = await service.storage.tournament_tables(record.id)
        for table_id in links.values():  # partners sat in one team at every table
            table = await service.get(table_id)
            teams = await service.teams(table_id)
            assert teams is not None
            by_position = [s.user_id for s in table.seats]
            assert all(frozenset(by_position[p] for p in team) in pairs for team in teams)
        # The champion, found here from the final's stored result alone.
        final_result = await service.result(links[(3, 0)])
        assert final_result is not None
        winner = next(s.user_id for s in final_result.seats if s.place == 1)
        (champion_key,) = [k for members, k in pairs.items() if winner in members]
        table = (await service.tournaments.standings(record.id))[1]
        assert table[0].key == champion_key
        final = [m for m in world.fake.messages(world.channel) if "Champion:" in m.text]
        assert len(final) == 1
        save_sample("standings-knockout.png", next(iter(final[0].file_bytes.values())))


@pytest.mark.slow
async def test_a_round_robin_of_four_tock_players(tmp_path: Path) -> None:
    stand_in = RecordingRenderer()
    async with running_world(tmp_path, renderer=stand_in.renderer()) as world:
        users = [world.alice, world.bob, world.carol, world.fake.add_user("dan", guild=world.guild)]
        await world.alice.slash(
            world.channel,
            "tournament new",
            game="tock",
            format="round_robin",
            seats=2,
            turn_time=60,
            bots=True,
        )
        for user in users:
            await user.click(signup_post(world), label="Join")
        await world.alice.slash(world.channel, "tournament host", action="start")
        assert world.desk is not None
        record = (await world.desk.service.tournaments.of_guild(world.guild.id))[0]
        record = await play_for_people(world, record)
        met = sorted(sorted(m.entrants) for r in record.state.rounds for m in r.matches)
        keys = sorted(e.key for e in record.state.entrants)
        assert met == sorted(sorted(p) for p in itertools.combinations(keys, 2))
        table = (await world.desk.service.tournaments.standings(record.id))[1]
        assert {s.key: s.points for s in table} == await expected_points(world, record)


async def test_a_round_posted_by_two_processes_opens_one_thread_per_table(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rolling restart: both processes of one shard post the round that just opened. The
    starter message of each table and the round's post carry nonces, so Discord keeps one of
    each; the second process finds the table's thread instead of opening another."""
    assert world.desk is not None
    desk: Any = world.desk.tournament_desk  # type: ignore[attr-defined]
    opened_rounds: list[Any] = []
    round_opened = desk.round_opened

    async def kept(opened: Any) -> None:
        opened_rounds.append(opened)
        await round_opened(opened)

    monkeypatch.setattr(desk, "round_opened", kept)
    await world.alice.slash(world.channel, "tournament new", game="tock", format="swiss")
    for user in (world.alice, world.bob):
        await user.click(signup_post(world), label="Join")
    await world.alice.slash(world.channel, "tournament host", action="start")
    await world.desk.deliveries_done()
    assert len(opened_rounds) == 1
    threads = world.fake.threads(world.channel)
    posts = len(world.fake.messages(world.channel))
    table = opened_rounds[0].tables[0].record
    thread_id = (await world.desk.service.get(table.id)).thread_id

    await desk._post_round(replace(opened_rounds[0]))  # the other process, same round
    await world.desk.deliveries_done()
    assert world.fake.threads(world.channel) == threads, "no second thread"
    assert len(world.fake.messages(world.channel)) == posts, "no second starter or round post"
    assert (await world.desk.service.get(table.id)).thread_id == thread_id
