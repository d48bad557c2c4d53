"""Unit tests of the move notation (CN-3) and of the scoring helpers' breakdowns (K-15.3)."""

from __future__ import annotations

import pytest

from engine.carcassonne.features import Feature
from engine.carcassonne.notation import Action, Placement, Turn, parse_syntax
from engine.carcassonne.scoring import owners_of, road_city_value
from engine.carcassonne.setup import initial_state, make_options
from engine.carcassonne.tiles import CITY, ROAD
from engine.protocol import IllegalMove
from i18n.events import event_text


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("0,-1@180", Placement(0, -1, 180)),
        ("-12,7@90", Placement(-12, 7, 90)),
        ("none", Action()),
        ("follower:city0", Action("follower", "city0")),
        ("big:monastery", Action("big", "monastery")),
        ("pig:field12", Action("pig", "field12")),
        (
            "T15 0,-1@90 follower:city0",
            Turn("T15", Placement(0, -1, 90), Action("follower", "city0")),
        ),
        ("U -1,0@0 none", Turn("U", Placement(-1, 0, 0), Action())),
        ("E 0,-1@180", Turn("E", Placement(0, -1, 180))),
    ],
)
def test_grammar_accepts_and_prints_canonical_text(text: str, move: object) -> None:
    parsed = parse_syntax(text)
    assert parsed == move
    assert str(parsed) == text


@pytest.mark.parametrize(
    "text",
    [
        "+1,0@0",
        "-0,0@0",
        "01,0@0",
        "1,0@360",
        "1,0 @0",
        " none",
        "None",
        "follower:city",
        "follower:city01",
        "knight:city0",
        "follower:monastery0",
        "E  0,-1@180 none",
        "E 0,-1@180 none extra",
        "R 0,1@0 follower:river0",
        "",
    ],
)
def test_grammar_rejects_text_outside_cn_3_1(text: str) -> None:
    with pytest.raises(IllegalMove):
        parse_syntax(text)


def test_owners_are_the_top_strengths_above_zero() -> None:
    assert owners_of([0, 0, 0]) == []
    assert owners_of([1, 2, 2]) == [1, 2]
    assert owners_of([2, 1]) == [0]


@pytest.mark.parametrize(
    ("options", "feature", "complete", "points", "text"),
    [
        (
            {},
            Feature(CITY, 0, frozenset({(0, 0), (0, 1), (1, 1)}), 2),
            True,
            10,
            "city of 3 tiles ×2 + 2 shields ×2 = 10",
        ),
        (
            {},
            Feature(CITY, 2, frozenset({(0, 0), (0, 1), (1, 1)}), 2),
            False,
            5,
            "city of 3 tiles ×1 + 2 shields ×1 = 5",
        ),
        (
            {"small_cities": True},
            Feature(CITY, 0, frozenset({(0, 0), (0, 1)})),
            True,
            2,
            "small city of 2 tiles ×1 = 2",
        ),
        (
            {"small_cities": True},
            Feature(CITY, 1, frozenset({(0, 0), (0, 1)})),
            False,
            2,
            "city of 2 tiles ×1 = 2",
        ),
        (
            {},
            Feature(CITY, 0, frozenset({(0, 0), (0, 1)}), 1, cathedral=True),
            True,
            9,
            "city of 2 tiles with a cathedral ×3 + 1 shield ×3 = 9",
        ),
        (
            {},
            Feature(CITY, 3, frozenset({(0, 0), (0, 1)}), 1, cathedral=True),
            False,
            0,
            "city of 2 tiles with a cathedral ×0 + 1 shield ×0 = 0",
        ),
        (
            {},
            Feature(ROAD, 0, frozenset({(0, 0), (1, 0), (2, 0)}), inn=True),
            True,
            6,
            "road of 3 tiles with an inn ×2 = 6",
        ),
        (
            {},
            Feature(ROAD, 1, frozenset({(0, 0), (1, 0), (2, 0)}), inn=True),
            False,
            0,
            "road of 3 tiles with an inn ×0 = 0",
        ),
        ({}, Feature(ROAD, 0, frozenset({(0, 0)})), True, 1, "road of 1 tile ×1 = 1"),
    ],
)
def test_road_and_city_values_with_breakdown(
    options: dict[str, bool], feature: Feature, complete: bool, points: int, text: str
) -> None:
    state = initial_state(make_options(options), ("Red", "Blue"), 0, 0, [])
    got_points, data = road_city_value(state, feature, complete)
    assert got_points == points
    assert data["tiles"] == len(feature.cells)
    # The facts suffice for the words: the English catalogue says the same breakdown.
    kind = "city" if feature.kind == CITY else "road"
    event = {
        "kind": "score",
        "seat": None,
        "data": {**data, "feature": kind, "final": not complete, "points": points, "owners": []},
    }
    said = event_text(event, "en", game="carcassonne")
    assert said.lower().startswith(text.lower()), said
