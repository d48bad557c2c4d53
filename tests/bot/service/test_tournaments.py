"""Tournaments through the table service: rounds open by themselves, exactly once.

People here never move by hand: every seat lets its turn clock run out and the engine plays
its automatic action (a no-show is a player too). The toy game keeps a table to a few moves.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.model.clock import FakeClock
from bot.service import TableService
from bot.service.tournaments import RoundOpened, TournamentError
from bot.storage import open_storage
from bot.tournament.record import TournamentPhase, TournamentRecord
from tests.bot.conftest import load_game

HOST = 900


class Heard:
    """A tournament listener that keeps what it was told and, like the front end, gives
    each table a thread."""

    def __init__(self) -> None:
        self.rounds: list[RoundOpened] = []
        self.finished: list[TournamentRecord] = []
        self.service: TableService | None = None

    async def round_opened(self, opened: RoundOpened) -> None:
        self.rounds.append(opened)
        assert self.service is not None
        for table in opened.tables:
            await self.service.set_thread(table.record.id, 5000 + table.record.id)

    async def tournament_finished(self, tournament: TournamentRecord) -> None:
        self.finished.append(tournament)


async def make_service(path: Path, clock: FakeClock, heard: Heard) -> TableService:
    storage = await open_storage(f"sqlite:///{path}")
    service = TableService(
        storage,
        clock=clock,
        choose_bot_move=random_chooser,
        load_game=load_game,
        timeouts_before_leave=0,
    )
    service.tournaments.listener = heard
    heard.service = service
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.storage.close()


async def signed_up(service: TableService, count: int, **options: Any) -> TournamentRecord:
    options.setdefault("format", "swiss")
    options.setdefault("players", 2)
    record = await service.tournaments.create(1, 10, "toy", HOST, turn_time=60, **options)
    for i in range(count):
        record = await service.tournaments.join(record.id, 100 + i, f"P{i}")
    return record


async def run_round(service: TableService, clock: FakeClock) -> None:
    """Let the clocks of the open tables run out until none is in play."""
    for _ in range(500):
        tables = [t for t in await service.list_tables(1) if t.extra.get("tournament")]
        if not tables:
            return
        clock.advance(61)
        await service.run_due()
        await service.idle()
    raise AssertionError("the round never ended")


async def expected_points(service: TableService, record: TournamentRecord) -> dict[str, int]:
    """The points computed here from the stored results alone: 2 a win, 1 a draw, 2 a bye."""
    points: dict[str, int] = defaultdict(int)
    links = await service.storage.tournament_tables(record.id)
    for (_round_number, _slot), table_id in links.items():
        result = await service.result(table_id)
        assert result is not None
        a, b = (s for s in result.seats if s.user_id is not None)
        for me, other in ((a, b), (b, a)):
            points[f"u:{me.user_id}"] += (
                2 if me.place < other.place else int(me.place == other.place)
            )
    for round_ in record.state.rounds:
        for key in round_.byes:
            points[key] += 2
    return dict(points)


async def test_a_swiss_of_seven_runs_to_its_champion(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        record = await signed_up(service, 7, rounds=3)
        with pytest.raises(TournamentError):
            await service.tournaments.begin(record.id, 100)  # only the host starts
        await service.tournaments.begin(record.id, HOST)
        for _ in range(3):
            await run_round(service, clock)
        record = await service.tournaments.get(record.id)
        assert record.phase == TournamentPhase.FINISHED
        assert [r.number for r in heard.rounds] == [1, 2, 3]
        assert all(len(r.tables) == 3 and len(r.byes) == 1 for r in heard.rounds)
        assert len(heard.finished) == 1
        byes = [k for r in record.state.rounds for k in r.byes]
        assert len(set(byes)) == 3
        met = [frozenset(m.entrants) for r in record.state.rounds for m in r.matches]
        assert len(met) == len(set(met))  # seven players, three rounds: no repeat is needed
        _, table = await service.tournaments.standings(record.id)
        assert {s.key: s.points for s in table} == await expected_points(service, record)
        assert table == sorted(
            table, key=lambda s: (-s.points, -s.buchholz, -s.head_to_head, -s.score)
        )
        assert len(await service.storage.tournament_tables(record.id)) == 9
    finally:
        await close(service)


async def test_a_restart_between_rounds_opens_the_next_round_once(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    clock, heard = FakeClock(), Heard()
    service = await make_service(path, clock, heard)
    record = await signed_up(service, 4, rounds=2)
    await service.tournaments.begin(record.id, HOST)

    async def killed(*_args: Any) -> None:
        """The process dies right after the round's last table committed its end."""

    service.tournaments.committed = killed  # type: ignore[method-assign]
    await run_round(service, clock)
    assert len(await service.storage.tournament_tables(record.id)) == 2
    await close(service)

    heard_again = Heard()
    for _ in range(2):  # two restarts in a row: the second finds nothing to do
        service = await make_service(path, clock, heard_again)
        await close(service)
    assert [r.number for r in heard_again.rounds] == [2]
    service = await make_service(path, clock, heard_again)
    try:
        links = await service.storage.tournament_tables(record.id)
        assert sorted(links) == [(1, 0), (1, 1), (2, 0), (2, 1)]
        await run_round(service, clock)
        final = await service.tournaments.get(record.id)
        assert final.phase == TournamentPhase.FINISHED
        assert len(await service.storage.tournament_tables(record.id)) == 4
    finally:
        await close(service)


async def test_a_kill_after_recording_a_round_opens_its_tables_once(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    clock, heard = FakeClock(), Heard()
    service = await make_service(path, clock, heard)
    record = await signed_up(service, 4, rounds=2)
    await service.tournaments.begin(record.id, HOST)
    opened_once = service.tournaments._open_tables

    async def dies(*_args: Any, **_kw: Any) -> None:
        raise RuntimeError("killed between recording round 2 and opening its tables")

    service.tournaments._open_tables = dies  # type: ignore[method-assign]
    await run_round(service, clock)
    stored = await service.tournaments.get(record.id)
    assert len(stored.state.rounds) == 2  # round 2 is recorded ...
    assert len(await service.storage.tournament_tables(record.id)) == 2  # ... not opened
    service.tournaments._open_tables = opened_once  # type: ignore[method-assign]
    await close(service)

    again = Heard()
    service = await make_service(path, clock, again)
    try:
        # Two more tries at once (a second process, a late hook) change nothing.
        await service.tournaments.advance(record.id)
        await service.tournaments.advance(record.id)
        assert [(r.number, len(r.tables)) for r in again.rounds] == [(2, 2)]
        links = await service.storage.tournament_tables(record.id)
        assert sorted(k for k in links if k[0] == 2) == [(2, 0), (2, 1)]
        pairs = [frozenset(m.entrants) for r in stored.state.rounds for m in r.matches]
        assert len(pairs) == len(set(pairs))
    finally:
        await close(service)


async def test_knockout_and_round_robin_reach_a_champion(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        knockout = await signed_up(service, 5, format="knockout")
        await service.tournaments.begin(knockout.id, HOST)
        for _ in range(3):
            await run_round(service, clock)
        knockout = await service.tournaments.get(knockout.id)
        assert knockout.phase == TournamentPhase.FINISHED
        assert [len(r.matches) for r in knockout.state.rounds] == [1, 2, 1]
        robin = await service.tournaments.create(
            1, 10, "toy", HOST, format="round_robin", players=2, turn_time=60
        )
        for i in range(4):
            await service.tournaments.join(robin.id, 200 + i, f"R{i}")
        await service.tournaments.begin(robin.id, HOST)
        for _ in range(3):
            await run_round(service, clock)
        robin = await service.tournaments.get(robin.id)
        assert robin.phase == TournamentPhase.FINISHED
        met = [frozenset(m.entrants) for r in robin.state.rounds for m in r.matches]
        assert sorted(met, key=sorted) == sorted(
            (frozenset(p) for p in itertools.combinations([f"u:{200 + i}" for i in range(4)], 2)),
            key=sorted,
        )
    finally:
        await close(service)


async def test_team_sign_up_pairs_singles_and_seats_partners_together(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        record = await service.tournaments.create(
            1,
            10,
            "toy",
            HOST,
            format="knockout",
            players=4,
            turn_time=60,
            options={"teams": True},
        )
        await service.tournaments.join(record.id, 1, "Ann", partner_id=2, partner_name="Bob")
        with pytest.raises(TournamentError):
            await service.tournaments.join(record.id, 2, "Bob")
        await service.tournaments.join(record.id, 3, "Cid")
        await service.tournaments.join(record.id, 4, "Dee")
        record = await service.tournaments.begin(record.id, HOST)
        assert sorted(e.members for e in record.state.entrants) == [(1, 2), (3, 4)]
        table = heard.rounds[0].tables[0].record
        teams = await service.teams(table.id)
        assert teams is not None
        by_seat = {s.index: s.user_id for s in table.seats}
        assert sorted(sorted(by_seat[p] for p in team) for team in teams) == [[1, 2], [3, 4]]
    finally:
        await close(service)


async def test_the_turn_clock_is_required(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        with pytest.raises(TournamentError):
            await service.tournaments.create(
                1, 10, "toy", HOST, format="swiss", players=2, turn_time=0
            )
    finally:
        await close(service)


async def test_a_start_time_starts_the_tournament_by_itself(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        record = await signed_up(service, 3, start_at=clock.now() + 600)
        await service.run_due()
        assert (await service.tournaments.get(record.id)).phase == TournamentPhase.SIGNUP
        clock.advance(601)
        await service.run_due()
        record = await service.tournaments.get(record.id)
        assert record.phase == TournamentPhase.RUNNING
        assert [(r.number, len(r.tables), len(r.byes)) for r in heard.rounds] == [(1, 1, 1)]
    finally:
        await close(service)


async def test_the_host_pauses_and_the_next_round_waits(tmp_path: Path) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        record = await signed_up(service, 4, rounds=2)
        await service.tournaments.begin(record.id, HOST)
        with pytest.raises(TournamentError):
            await service.tournaments.pause(record.id, 100)
        await service.tournaments.pause(record.id, HOST)
        await run_round(service, clock)
        assert [r.number for r in heard.rounds] == [1]  # round 1 is over, round 2 waits
        await service.tournaments.pause(record.id, HOST, paused=False)
        assert [r.number for r in heard.rounds] == [1, 2]
        await service.tournaments.remove(record.id, HOST, 100)
        await run_round(service, clock)
        final = await service.tournaments.get(record.id)
        assert final.phase == TournamentPhase.FINISHED
        assert "u:100" in final.state.removed
        data = await service.tournaments.record_of(record.id)
        assert len(data["tables"]) == 4
        assert all("record" in table for table in data["tables"])
    finally:
        await close(service)


async def test_a_season_ranks_only_its_own_games_and_keeps_its_champion(tmp_path: Path) -> None:
    from bot.service import SeasonError

    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        day = 86400.0
        start = clock.now()
        season = await service.seasons.create(1, "toy", "Winter", start, start + 7 * day)
        with pytest.raises(SeasonError):  # seasons of one game do not overlap
            await service.seasons.create(1, "toy", "Again", start + day, start + 9 * day)
        with pytest.raises(SeasonError):
            await service.seasons.create(1, "toy", "Backwards", start, start - day)
        record = await signed_up(service, 2, rounds=1)
        await service.tournaments.begin(record.id, HOST)
        await run_round(service, clock)
        # A game after the season does not count in it.
        clock.advance(8 * day)
        late = await signed_up(service, 2, rounds=1)
        await service.tournaments.begin(late.id, HOST)
        await run_round(service, clock)
        board = await service.seasons.board(1, "toy")
        assert board is not None
        assert board.season == season
        assert board.over
        assert sum(r.games for r in board.top) == 2  # one table, two players
        winner = board.top[0]
        assert board.champion == winner
        champions = await service.seasons.champions(1, winner.player)
        assert [b.season.name for b in champions] == ["Winter"]
        assert await service.seasons.champions(1, "u:424242") == []
    finally:
        await close(service)


async def test_only_the_process_that_owns_the_guild_runs_the_tournament(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    clock, heard = FakeClock(), Heard()
    service = await make_service(path, clock, heard)
    record = await signed_up(service, 4, rounds=2)
    await service.tournaments.begin(record.id, HOST)
    await service.stop()
    await service.start(owns_guild=lambda guild: guild != 1)  # now another process's guild
    await run_round(service, clock)
    assert [r.number for r in heard.rounds] == [1]  # round 2 is not this process's to open
    await close(service)
    owner = Heard()
    service = await make_service(path, clock, owner)
    try:
        assert [r.number for r in owner.rounds] == [2]
    finally:
        await close(service)


@pytest.mark.parametrize("crafted", [0, -5, 2**63, 10**19 - 1, 424242])
async def test_a_crafted_tournament_id_is_refused_cleanly(tmp_path: Path, crafted: int) -> None:
    clock, heard = FakeClock(), Heard()
    service = await make_service(tmp_path / "t.sqlite3", clock, heard)
    try:
        with pytest.raises(TournamentError):
            await service.tournaments.join(crafted, 1, "Ann")
    finally:
        await close(service)
