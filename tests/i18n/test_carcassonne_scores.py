"""Every Carcassonne score, of every farm edition and expansion, one sentence in each language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from i18n.events import event_text

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
    if data["feature"] == "farm" and "pig" in event_text(event, "en", game="carcassonne"):
        traits.add("farm/pig")
    return traits


@pytest.mark.parametrize("farms", FARM_EDITIONS)
@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_every_score_is_one_sentence_naming_its_scorers(farms: str, locale: str) -> None:
    names = ["Ann", "Bo", "Cy", "Dé"]
    english = {}
    for event in _scores(farms):
        text = event_text(event, locale, game="carcassonne", names=names)
        assert "{" not in text, text
        assert "}" not in text, text
        assert text[:1].isupper(), text
        assert text.endswith("."), text
        for owner in event["data"]["owners"]:
            assert names[owner] in text
        english[id(event)] = event_text(event, "en", game="carcassonne", names=names)
        if locale != "en":
            assert text != english[id(event)], f"stayed English: {text}"


def test_engine_events_carry_no_sentence() -> None:
    """Facts only: the words are the catalogues' (English is one of them)."""
    for events in GAMES.values():
        assert all(set(event) == {"kind", "seat", "data", "public"} for event in events)


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


def _farm_event(data: dict[str, Any]) -> dict[str, Any]:
    owners = data["owners"]
    seat = owners[0] if len(owners) == 1 else None
    return {"kind": "score", "seat": seat, "data": {**data, "final": True}}


def test_third_edition_farm_with_a_pig_and_a_tie() -> None:
    event = _farm_event({"feature": "farm", "cities": 2, "owners": [0, 1], "points": [8, 6]})
    names = ["Ann", "Bo"]
    assert event_text(event, "en", game="carcassonne", names=names) == (
        "Farm bordering 2 complete cities: Ann: 2 ×4 (pig) = 8 and Bo: 2 ×3 = 6."
    )
    assert event_text(event, "de", game="carcassonne", names=names) == (
        "Die Wiese grenzt an 2 fertige Städte: Ann: 2 ×4 (Schwein) = 8 und Bo: 2 ×3 = 6."
    )


def test_second_edition_farm_counts_the_pig_cities_from_the_points() -> None:
    event = _farm_event({"feature": "farm", "cities": 3, "owners": [1], "points": 11})
    assert event_text(event, "en", game="carcassonne", names=["Ann", "Bo"]) == (
        "Farms of Bo border 3 complete cities ×3 + 2 with the pig ×1 = 11."
    )


def test_first_edition_farm_says_the_farmers_of_a_city() -> None:
    event = _farm_event(
        {"feature": "farm", "city": [2, -1], "segment": "city1", "owners": [0, 1], "points": [5, 4]}
    )
    text = event_text(event, "de", game="carcassonne", names=["Ann", "Bo"])
    assert text == "Bauern an einer fertigen Stadt: Ann – 5 Punkte und Bo – 4 Punkte."
    assert "city1" not in event_text(event, "hu", game="carcassonne", names=["Ann", "Bo"])


def test_goods_majority_and_nobody_scoring() -> None:
    goods = _farm_event(
        {"feature": "goods", "goods": "wine", "tokens": 1, "owners": [0, 1], "points": 10}
    )
    assert event_text(goods, "en", game="carcassonne", names=["Ann", "Bo"]) == (
        "Most wine (1 token) = 10 — Ann and Bo."
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
    }
    assert event_text(road, "en", game="carcassonne") == (
        "Road of 3 tiles with an inn ×0 = 0 — no follower, nobody scores."
    )
    assert event_text(road, "de", game="carcassonne") == (
        "Straße aus 3 Karten mit Wirtshaus ×0 = 0 — kein Gefolgsmann, niemand punktet."
    )


def test_complete_and_unfinished_monasteries() -> None:
    done = {
        "kind": "score",
        "seat": 1,
        "data": {"feature": "monastery", "tiles": 9, "final": False, "points": 9, "owners": [1]},
    }
    unfinished = {
        "kind": "score",
        "seat": 0,
        "data": {"feature": "monastery", "tiles": 2, "final": True, "points": 2, "owners": [0]},
    }
    names = ["Ann", "Bo"]
    assert event_text(done, "en", game="carcassonne", names=names) == (
        "Monastery with all 8 neighbours = 9 — Bo."
    )
    assert event_text(unfinished, "en", game="carcassonne", names=names) == (
        "Unfinished monastery 1 + 1 neighbour = 2 — Ann."
    )
