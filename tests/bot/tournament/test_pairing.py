"""The pure tournament rules: pairings, byes, brackets, round robins, standings."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    Entrant,
    Format,
    Settings,
    Tournament,
    champion,
    next_round,
    standings,
    total_rounds,
)
from bot.tournament.pairing import table_sizes
from bot.tournament.standings import points_of


def field(count: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(f"e{i}", f"P{i}", (i + 1,), seed=float(100 - i)) for i in range(count))


def play(tournament: Tournament, rng: random.Random) -> Tournament:
    """Give every table of the last round a random result (places may tie)."""
    round_ = tournament.rounds[-1]
    for index, match in enumerate(round_.matches):
        places = [rng.randint(1, len(match.entrants)) for _ in match.entrants]
        ranked = sorted(set(places))
        places = [ranked.index(p) + 1 for p in places]
        scores = [rng.randint(0, 50) for _ in match.entrants]
        tournament = tournament.with_result(round_.number, index, places, scores)
    return tournament


def pairs_met(tournament: Tournament) -> set[frozenset[str]]:
    return {
        frozenset(pair)
        for r in tournament.rounds
        for m in r.matches
        for pair in itertools.combinations(m.entrants, 2)
    }


def repeat_free_exists(keys: list[str], met: set[frozenset[str]]) -> bool:
    """Brute force: can ``keys`` be paired (one bye if odd) without a pair that met?"""
    if len(keys) <= 1:
        return True
    if len(keys) % 2:
        return any(repeat_free_exists(keys[:i] + keys[i + 1 :], met) for i in range(len(keys)))
    first, rest = keys[0], keys[1:]
    return any(
        frozenset((first, other)) not in met
        and repeat_free_exists([k for k in rest if k != other], met)
        for other in rest
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(1, 6), st.randoms(use_true_random=False))
def test_swiss_seats_everyone_once_and_repeats_only_when_forced(
    count: int, rounds: int, rng: random.Random
) -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=rounds), field(count))
    while (new := next_round(tournament)) is not None:
        met = pairs_met(tournament)
        seated = [k for m in new.matches for k in m.entrants] + list(new.byes)
        assert sorted(seated) == sorted(e.key for e in tournament.entrants)
        assert len(new.byes) == count % 2
        repeats = [m for m in new.matches if frozenset(m.entrants) in met]
        if repeat_free_exists([e.key for e in tournament.entrants], met):
            assert not repeats, (new, met)
        tournament = play(tournament.with_round(new), rng)
    assert len(tournament.rounds) == rounds


def test_swiss_byes_go_to_different_entrants_and_to_the_bottom() -> None:
    rng = random.Random(3)
    tournament = Tournament(Settings(Format.SWISS, rounds=5), field(7))
    byes: list[str] = []
    while (new := next_round(tournament)) is not None:
        byes.extend(new.byes)
        if not tournament.rounds:
            assert new.byes == ("e6",)  # the lowest seed sits out first
        tournament = play(tournament.with_round(new), rng)
    assert len(byes) == len(set(byes)) == 5


def test_swiss_round_one_folds_the_field_by_seed() -> None:
    first = next_round(Tournament(Settings(Format.SWISS), field(8)))
    assert first is not None
    assert [m.entrants for m in first.matches] == [
        ("e0", "e4"),
        ("e1", "e5"),
        ("e2", "e6"),
        ("e3", "e7"),
    ]


def test_swiss_pairs_equal_scores_after_round_one() -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=3), field(8))
    first = next_round(tournament)
    assert first is not None
    tournament = tournament.with_round(first)
    for index in range(4):  # the higher seed wins every table
        tournament = tournament.with_result(1, index, [1, 2], [10, 5])
    second = next_round(tournament)
    assert second is not None
    points = points_of(tournament)
    for match in second.matches:
        a, b = match.entrants
        assert points[a] == points[b]


def test_table_sizes_are_even_and_leave_byes_only_when_needed() -> None:
    assert table_sizes(7, 3, 2) == [3, 2, 2]
    assert table_sizes(7, 4, 3) == [4, 3]
    assert table_sizes(5, 4, 3) == [4]  # one sits out: two tables of 3 and 2 would be too small
    assert table_sizes(12, 5, 2) == [4, 4, 4]


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 13), st.integers(3, 5), st.randoms(use_true_random=False))
def test_swiss_groups_seat_everyone_once(count: int, size: int, rng: random.Random) -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=3, table_size=size), field(count))
    while (new := next_round(tournament)) is not None:
        seated = [k for m in new.matches for k in m.entrants] + list(new.byes)
        assert sorted(seated) == sorted(e.key for e in tournament.entrants)
        assert all(2 <= len(m.entrants) <= size for m in new.matches)
        tournament = play(tournament.with_round(new), rng)


def test_knockout_of_eight_has_three_rounds_and_a_champion() -> None:
    tournament = Tournament(Settings(Format.KNOCKOUT), field(8))
    assert total_rounds(tournament) == 3
    first = next_round(tournament)
    assert first is not None
    assert {m.entrants for m in first.matches} == {
        ("e0", "e7"),
        ("e3", "e4"),
        ("e1", "e6"),
        ("e2", "e5"),
    }
    while (new := next_round(tournament)) is not None:
        tournament = tournament.with_round(new)
        for index, match in enumerate(new.matches):
            # The lower seed number wins, except e3 beats e0 in the semi-final.
            a, b = match.entrants
            upset = {a, b} == {"e0", "e3"}
            a_wins = (int(a[1:]) < int(b[1:])) != upset
            tournament = tournament.with_result(
                new.number, index, [1, 2] if a_wins else [2, 1], [0, 0]
            )
    assert champion(tournament) == "e1"
    table = standings(tournament)
    assert table[0].key == champion(tournament)
    assert {s.key for s in table[:2]} == {"e1", "e3"}
    assert {s.key for s in table[2:4]} == {"e0", "e2"}


def test_knockout_gives_byes_to_the_top_seeds() -> None:
    first = next_round(Tournament(Settings(Format.KNOCKOUT), field(5)))
    assert first is not None
    assert sorted(first.byes) == ["e0", "e1", "e2"]
    assert [m.entrants for m in first.matches] == [("e3", "e4")]


def test_knockout_winner_goes_on_even_after_a_tie() -> None:
    tournament = Tournament(Settings(Format.KNOCKOUT), field(2))
    first = next_round(tournament)
    assert first is not None
    tournament = tournament.with_round(first).with_result(1, 0, [1, 1], [3, 7])
    assert champion(tournament) == "e1"  # same place, better game score


@given(st.integers(2, 9))
def test_round_robin_meets_everyone_exactly_once(count: int) -> None:
    tournament = Tournament(Settings(Format.ROUND_ROBIN), field(count))
    meetings: list[frozenset[str]] = []
    while (new := next_round(tournament)) is not None:
        meetings.extend(frozenset(m.entrants) for m in new.matches)
        tournament = tournament.with_round(new)
        for index in range(len(new.matches)):
            tournament = tournament.with_result(new.number, index, [1, 2], [1, 0])
    assert len(meetings) == len(set(meetings)) == count * (count - 1) // 2


def test_standings_break_ties_by_buchholz_then_head_to_head_then_score() -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=2), field(4))
    first = next_round(tournament)
    assert first is not None  # e0-e2, e1-e3
    tournament = tournament.with_round(first)
    tournament = tournament.with_result(1, 0, [1, 2], [30, 10])  # e0 beats e2
    tournament = tournament.with_result(1, 1, [2, 1], [20, 25])  # e3 beats e1
    second = next_round(tournament)
    assert second is not None
    assert {frozenset(m.entrants) for m in second.matches} == {
        frozenset({"e0", "e3"}),
        frozenset({"e1", "e2"}),
    }
    tournament = tournament.with_round(second)
    for index, match in enumerate(second.matches):
        winner = "e3" if "e3" in match.entrants else "e2"
        places = [1 if k == winner else 2 for k in match.entrants]
        tournament = tournament.with_result(2, index, places, [5, 5])
    table = standings(tournament)
    # e3 4 points; e0 and e2 2 points each, Buchholz e0: e2(2)+e3(4)=6, e2: e0(2)+e1(0)=2.
    assert [s.key for s in table] == ["e3", "e0", "e2", "e1"]
    assert [s.points for s in table] == [4, 2, 2, 0]
    assert table[1].buchholz == 6
    assert table[2].buchholz == 2
    assert champion(tournament) == "e3"


def test_round_robin_ties_go_to_head_to_head() -> None:
    tournament = Tournament(Settings(Format.ROUND_ROBIN), field(3))
    wins = {
        frozenset({"e0", "e1"}): "e1",
        frozenset({"e1", "e2"}): "e2",
        frozenset({"e0", "e2"}): "e0",
    }
    while (new := next_round(tournament)) is not None:
        tournament = tournament.with_round(new)
        for index, match in enumerate(new.matches):
            winner = wins[frozenset(match.entrants)]
            tournament = tournament.with_result(
                new.number, index, [1 if k == winner else 2 for k in match.entrants], [0, 0]
            )
    table = standings(tournament)
    assert {s.points for s in table} == {4}  # a bye (2) and a win (2) each
    assert all(s.rank == 1 for s in table)  # a cycle: nothing settles it
    assert champion(tournament) is None


def test_points_per_place_from_the_settings() -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=1, table_size=3, points=(5, 2)), field(3))
    first = next_round(tournament)
    assert first is not None
    tournament = tournament.with_round(first).with_result(1, 0, [2, 1, 3], [0, 0, 0])
    points = points_of(tournament)
    order = first.matches[0].entrants
    assert [points[k] for k in order] == [2, 5, 0]


def test_a_removed_entrant_is_paired_no_more() -> None:
    tournament = Tournament(Settings(Format.SWISS, rounds=2), field(4))
    first = next_round(tournament)
    assert first is not None
    tournament = tournament.with_round(first)
    for index in range(2):
        tournament = tournament.with_result(1, index, [1, 2], [0, 0])
    tournament = tournament.without("e0")
    second = next_round(tournament)
    assert second is not None
    assert "e0" not in {k for m in second.matches for k in m.entrants} | set(second.byes)
    assert len(second.byes) == 1


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(list(Format)), st.integers(2, 9), st.randoms(use_true_random=False))
def test_json_round_trip(fmt: Format, count: int, rng: random.Random) -> None:
    tournament = Tournament(Settings(fmt, rounds=2), field(count))
    new = next_round(tournament)
    assert new is not None
    tournament = play(tournament.with_round(new), rng)
    assert Tournament.from_json(tournament.to_json()) == tournament
