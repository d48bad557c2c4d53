"""Every Carcassonne score, of every farm edition and expansion, read in German and Hungarian."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from i18n.events import event_text, rebuilt_text

FARM_EDITIONS = ("third", "second", "first")
ALL_EXPANSIONS = {
    "small_cities": True,
    "river": True,
    "inns_cathedrals": "full",
    "traders_builders": "full",
}
SEEDS = (1, 6)  # between them: inns, cathedrals, ties, pigs and goods majorities


def _played_out(farms: str, seed: int) -> list[dict[str, Any]]:
    """The events of a whole 4-player game of random legal moves, final scoring included."""
    module: Any = get_game("carcassonne")
    state = module.new_game(4, {**ALL_EXPANSIONS, "farms": farms}, seed)
    rng = random.Random(seed)
    events = [e.to_json() for e in state.events]
    while module.outcome(state) is None:
        seat = min(module.seats_to_act(state))
        state = module.apply(state, rng.choice(module.legal_moves(state, seat)))
        events += [e.to_json() for e in state.events]
    return events


GAMES = {(farms, seed): _played_out(farms, seed) for farms in FARM_EDITIONS for seed in SEEDS}


def _scores(farms: str) -> list[dict[str, Any]]:
    return [e for seed in SEEDS for e in GAMES[farms, seed] if e["kind"] == "score"]


def _traits(event: dict[str, Any]) -> set[str]:
    """What kind of score an event is, to show the play-outs met every sort."""
    data = event["data"]
    traits = {data["feature"], f"{data['feature']}/{'final' if data['final'] else 'during'}"}
    owners = data["owners"]
    traits |= {"nobody"} if not owners else {"tie"} if len(owners) > 1 else set()
    traits |= {k for k in ("inn", "cathedral") if data.get(k)}
    if data["feature"] == "farm" and "pig" in event["text"]:
        traits.add("farm/pig")
    return traits


@pytest.mark.parametrize("farms", FARM_EDITIONS)
@pytest.mark.parametrize("locale", ["de", "hu"])
def test_every_score_reads_in_the_language(farms: str, locale: str) -> None:
    names = ["Ann", "Bo", "Cy", "Dé"]
    for event in _scores(farms):
        for who in (None, names):
            text = event_text(event, locale, game="carcassonne", names=who)
            assert text != event["text"], f"stayed English: {text}"
            assert "{" not in text, text
            assert "}" not in text, text
            if who is not None:
                for owner in event["data"]["owners"]:
                    assert names[owner] in text


@pytest.mark.parametrize("farms", FARM_EDITIONS)
def test_the_facts_rebuild_the_engines_english_sentence(farms: str) -> None:
    """The English catalogue, fed the event's data alone, writes the engine's sentence."""
    for event in _scores(farms):
        assert rebuilt_text(event, "en", game="carcassonne") == event["text"]


def test_the_play_outs_meet_every_sort_of_score() -> None:
    met: set[str] = set()
    for farms in FARM_EDITIONS:
        for event in _scores(farms):
            met |= _traits(event)
    expected = {
        "road/during",
        "road/final",
        "city/during",
        "city/final",
        "monastery/final",  # a completed one is rare in random play: see the test below
        "farm/pig",
        "farm/final",
        "goods/final",
        "inn",
        "cathedral",
        "nobody",
        "tie",
    }
    assert expected <= met, sorted(expected - met)


def _farm_event(data: dict[str, Any], text: str) -> dict[str, Any]:
    owners = data["owners"]
    seat = owners[0] if len(owners) == 1 else None
    return {"kind": "score", "seat": seat, "data": {**data, "final": True}, "text": text}


def test_third_edition_farm_with_a_pig_and_a_tie() -> None:
    event = _farm_event(
        {"feature": "farm", "cities": 2, "owners": [0, 1], "points": [8, 6]},
        "farm bordering 2 complete cities: Ann 2 ×4 (pig) = 8; Bo 2 ×3 = 6",
    )
    assert rebuilt_text(event, "en", game="carcassonne", names=["Ann", "Bo"]) == event["text"]
    assert event_text(event, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Wiese grenzt an 2 fertige Städte: Ann 2 ×4 (Schwein) = 8; Bo 2 ×3 = 6"
    )
    assert event_text(event, "hu", game="carcassonne", names=["Ann", "Bo"]) == (
        "mező, szomszédos: 2 kész város: Ann 2 ×4 (disznó) = 8; Bo 2 ×3 = 6"
    )


def test_second_edition_farm_counts_the_pig_cities_from_the_points() -> None:
    event = _farm_event(
        {"feature": "farm", "cities": 3, "owners": [1], "points": 11},
        "farms of Bo border 3 complete cities ×3 + 2 with the pig ×1 = 11",
    )
    assert rebuilt_text(event, "en", game="carcassonne", names=["Ann", "Bo"]) == event["text"]
    assert event_text(event, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Wiesen von Bo grenzen an 3 fertige Städte ×3 + 2 mit Schwein ×1 = 11"
    )


def test_first_edition_farm_names_the_city() -> None:
    event = _farm_event(
        {
            "feature": "farm",
            "city": [2, -1],
            "segment": "city1",
            "owners": [0, 1],
            "points": [5, 4],
        },
        # The words come from the data, not from the English sentence.
        "(English wording that is not parsed)",
    )
    assert event_text(event, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "Bauern, die die Stadt city1 bei (2,-1) versorgen: Ann 5, Bo 4"
    )
    assert event_text(event, "hu", game="carcassonne", names=["Ann", "Bo"]) == (
        "a(z) city1 (2,-1) várost ellátó földművesek: Ann 5, Bo 4"
    )


def test_goods_majority_and_nobody_scoring() -> None:
    goods = _farm_event(
        {"feature": "goods", "goods": "wine", "tokens": 4, "owners": [0, 1], "points": 10},
        "most wine (4 tokens) = 10 — Ann and Bo",
    )
    assert event_text(goods, "de", game="carcassonne", names=["Ann", "Bo"]) == (
        "am meisten Wein (4 Plättchen) = 10 — Ann und Bo"
    )
    road = {
        "kind": "score",
        "seat": None,
        "data": {
            "feature": "road",
            "tiles": 3,
            "inn": True,
            "multiplier": 0,
            "final": True,
            "points": 0,
            "owners": [],
        },
        "text": "road of 3 tiles with an inn ×0 = 0 — no follower, nobody scores",
    }
    assert rebuilt_text(road, "en", game="carcassonne") == road["text"]
    assert event_text(road, "de", game="carcassonne") == (
        "Straße aus 3 Karten mit Wirtshaus ×0 = 0 — kein Gefolgsmann, niemand punktet"
    )


def test_a_farm_event_missing_its_facts_keeps_the_english() -> None:
    event = _farm_event({"feature": "farm", "owners": [0], "points": 3}, "farm of Ann = 3")
    assert event_text(event, "de", game="carcassonne") == "farm of Ann = 3"


def test_complete_and_unfinished_monasteries() -> None:
    done = {
        "kind": "score",
        "seat": 1,
        "data": {"feature": "monastery", "tiles": 9, "final": False, "points": 9, "owners": [1]},
        "text": "monastery with all 8 neighbours = 9 — Bo",
    }
    unfinished = {
        "kind": "score",
        "seat": 0,
        "data": {"feature": "monastery", "tiles": 6, "final": True, "points": 6, "owners": [0]},
        "text": "unfinished monastery 1 + 5 neighbours = 6 — Ann",
    }
    names = ["Ann", "Bo"]
    for event in (done, unfinished):
        assert rebuilt_text(event, "en", game="carcassonne", names=names) == event["text"]
    assert event_text(done, "hu", game="carcassonne", names=names).endswith("= 9 — Bo")
    assert event_text(unfinished, "de", game="carcassonne", names=names) == (
        "unvollendetes Kloster 1 + 5 Nachbarn = 6 — Ann"
    )


def test_first_edition_farm_event_of_a_real_game_names_its_city_in_german() -> None:
    """CN-8.12 under first-edition farms: the event carries the city's segment (CN-2)."""
    from tests.engine.carcassonne.rules_helpers import duel

    draws = ["G", "E", "U"]
    moves = ["G 0,-1@0 follower:field0", "E 0,-2@180 follower:field0", "U 1,0@0 follower:field0"]
    state = duel(draws, moves, options={"farms": "first"})
    farms = [e for e in state.events if e.kind == "score" and e.data.get("feature") == "farm"]
    assert len(farms) == 1
    farm = farms[0].to_json()
    segment = farm["data"]["segment"]
    assert segment.startswith("city")
    german = event_text(farm, "de", game="carcassonne", names=["Ann", "Bo"])
    assert german.startswith(f"Bauern, die die Stadt {segment} bei (")
    assert german.endswith(": Ann 4")
