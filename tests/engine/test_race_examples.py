"""The worked examples of race-notation.md N-8 as exact legal-move sets (Tock and Dog)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import dog, tock

EXAMPLES: list[tuple[str, dict[str, Any], set[str]]] = [
    (
        "N-8.1",
        {"game": "tock", "pawns": {"0": ["r0*"]}, "hands": {"0": ["A", "K"]}, "turn": 0},
        {"A:r0-r1", "K:r0-r13"},
    ),
    (
        "N-8.2",
        {
            "game": "tock",
            "pawns": {"0": ["r15", "r20"], "1": ["r18*"]},
            "hands": {"0": ["2", "4", "5"]},
            "turn": 0,
        },
        {"2:r15-r17", "2:r20-r22", "4:r15-r11", "5:r20-r25"},
    ),
    (
        "N-8.3",
        {
            "game": "tock",
            "pawns": {"0": ["r67", "h0.2"]},
            "hands": {"0": ["3", "4", "5", "6"]},
            "turn": 0,
        },
        {"3:r67-r70", "4:r67-r63", "5:r67-r0", "6:r67-r1"},
    ),
    (
        "N-8.4",
        {"game": "tock", "pawns": {"0": ["r10", "r11"]}, "hands": {"0": ["7"]}, "turn": 0},
        {
            "7:r11-r18",
            "7:r11-r17,r10-r11",
            "7:r11-r16,r10-r12",
            "7:r11-r15,r10-r13",
            "7:r11-r14,r10-r14",
            "7:r11-r13,r10-r15",
            "7:r11-r12,r10-r16",
            "7:r10-r17",
        },
    ),
    (
        "N-8.5",
        {
            "game": "tock",
            "teams": [[0, 2], [1, 3]],
            "pawns": {"0": ["r67", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
            "hands": {"0": ["7"]},
            "turn": 0,
        },
        {"7:r67-r2"},
    ),
    (
        "N-8.6",
        {
            "game": "tock",
            "pawns": {"0": ["r15"]},
            "hands": {"1": ["A", "K", "7"], "2": ["3"]},
            "discard": ["10"],
            "turn": 1,
            "banned": True,
        },
        {"A:D", "7:D", "K:D"},
    ),
    (
        "N-8.7",
        {
            "game": "tock",
            "pawns": {"0": ["r0*", "r30", "r31"], "1": ["r18*", "r50"], "2": ["r40"]},
            "hands": {"0": ["J"]},
            "turn": 0,
        },
        {"J:N", "J:r30<>r40", "J:r30<>r50", "J:r31<>r40", "J:r31<>r50"},
    ),
    (
        "N-8.8",
        {"game": "dog", "pawns": {"0": ["r0*", "r62"]}, "hands": {"0": ["A", "3"]}, "turn": 0},
        {"A:r0-r1", "A:r0-r11", "A:r62-r63", "3:r0-r3"},
    ),
    (
        "N-8.9 bsw",
        {"game": "dog", "pawns": {"0": ["r0"]}, "hands": {"0": ["A"]}, "turn": 0},
        {"A:E", "A:r0-r1", "A:r0-r11"},
    ),
    (
        "N-8.9 braendi",
        {
            "game": "dog",
            "options": {"preset": "braendi"},
            "pawns": {"0": ["r0"]},
            "hands": {"0": ["A"]},
            "turn": 0,
        },
        {"A:E", "A:r0-r1", "A:r0-r11", "A:r0-h0.1"},
    ),
    (
        "N-8.10",
        {"game": "dog", "pawns": {"0": ["r62", "h0.1"]}, "hands": {"0": ["7"]}, "turn": 0},
        {
            "7:r62-r5",
            "7:r62-r4,h0.1-h0.2",
            "7:r62-r3,h0.1-h0.3",
            "7:r62-r2,h0.1-h0.4",
            "7:h0.1-h0.4,r62-h0.2",
        },
    ),
    (
        "N-8.11",
        {
            "game": "dog",
            "pawns": {"0": ["r61", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
            "hands": {"0": ["7"]},
            "turn": 0,
        },
        {
            "7:r61-r4",
            "7:r61-h0.1,r45-r48",
            "7:r61-h0.1,r40-r41,r45-r47",
            "7:r61-h0.1,r40-r42,r45-r46",
            "7:r61-h0.1,r40-r43",
        },
    ),
    (
        "N-8.12",
        {
            "game": "dog",
            "pawns": {"0": ["h0.1", "h0.2", "h0.3", "h0.4"], "2": ["r40", "r45"]},
            "hands": {"0": ["K", "5"]},
            "turn": 0,
        },
        {"K:E2", "K:r40-r53", "K:r45-r58", "5:r40-r45", "5:r45-r50"},
    ),
    (
        "N-8.13 D6",
        {
            "game": "dog",
            "pawns": {"0": ["r10"], "1": ["r16*"]},
            "hands": {"0": ["7", "3"]},
            "turn": 0,
        },
        {"3:r10-r13"},
    ),
    (
        "N-8.13 D6 fold",
        {"game": "dog", "pawns": {"0": ["r10"], "1": ["r16*"]}, "hands": {"0": ["7"]}, "turn": 0},
        {"F"},
    ),
    (
        "N-8.13 D5",
        {
            "game": "dog",
            "pawns": {"0": ["r3"], "1": ["r8"], "2": ["r5"]},
            "hands": {"0": ["7"]},
            "turn": 0,
        },
        {"7:r3-r10"},
    ),
    ("N-8.13 D14", {"game": "dog", "hands": {"0": ["X"]}, "turn": 0}, {"X=A:E"}),
    (
        "N-8.13 D10 bsw",
        {"game": "dog", "pawns": {"0": ["r10", "r20"]}, "hands": {"0": ["J"]}, "turn": 0},
        {"F"},
    ),
    (
        "N-8.13 D10 braendi",
        {
            "game": "dog",
            "options": {"preset": "braendi"},
            "pawns": {"0": ["r10", "r20"]},
            "hands": {"0": ["J"]},
            "turn": 0,
        },
        {"J:N"},
    ),
]


def _game(data: dict[str, Any]) -> Any:
    return dog if data["game"] == "dog" else tock


@pytest.mark.parametrize(("rule", "data", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_n_8_worked_example_legal_moves(
    rule: str, data: dict[str, Any], expected: set[str]
) -> None:
    game = _game(data)
    state = game.from_position(data)
    moves = game.legal_moves(state)
    assert {str(m) for m in moves} == expected
    assert len(moves) == len(expected)


@pytest.mark.parametrize(("rule", "data", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_n_8_worked_example_moves_round_trip(
    rule: str, data: dict[str, Any], expected: set[str]
) -> None:
    game = _game(data)
    state = game.from_position(data)
    for move in game.legal_moves(state):
        assert game.parse_move(state, str(move)) == move
        game.apply(state, move)  # every listed move can be carried out


def test_n_6_4_caution_several_segment_sets() -> None:
    state = tock.from_position(
        {"game": "tock", "pawns": {"0": ["r68", "r69"]}, "hands": {"0": ["7"]}, "turn": 0}
    )
    moves = {str(m) for m in tock.legal_moves(state)}
    assert {"7:r69-h0.1,r68-r1", "7:r69-r0,r68-h0.2", "7:r69-r71,r68-h0.3"} <= moves
    assert str(tock.parse_move(state, "7:r69-r1,r68-h0.1")) == "7:r69-h0.1,r68-r1"


def test_n_6_4_5_smallest_segment_list_when_own_pawns_burn() -> None:
    state = tock.from_position(
        {"game": "tock", "pawns": {"0": ["r8", "r10", "r11"]}, "hands": {"0": ["7"]}, "turn": 0}
    )
    move = tock.parse_move(state, "7:r11-r12,r8-r14")
    assert str(move) == "7:r10-r11,r8-r14"
    assert tock.to_position(tock.apply(state, move))["pawns"]["0"] == ["r14", "k0", "k0", "k0"]


def test_appendix_b_d14_joker_counts() -> None:
    data: dict[str, Any] = {
        "game": "dog",
        "pawns": {"0": ["r10", "r30"]},
        "hands": {"0": ["X"]},
        "turn": 0,
    }
    assert len(dog.legal_moves(dog.from_position(data))) == 35
    data["options"] = {"preset": "braendi"}
    moves = {str(m) for m in dog.legal_moves(dog.from_position(data))}
    assert len(moves) == 36
    assert "X=J:N" in moves
