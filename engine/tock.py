"""Tock, as played on Board Game Arena (race-games.md parts C and T).

The rules live in :mod:`engine.race`; this module configures them for Tock and exposes the
game protocol of :mod:`engine.protocol` (plus ``seven_starts``).
"""

from __future__ import annotations

from engine.protocol import OptionSpec
from engine.race.api import RaceGame
from engine.race.move import Move
from engine.race.state import State

NAME = "tock"
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5, 6)
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "game_type",
        "ffa",
        ("ffa", "2v2", "2v2v2"),
        "Free-for-all, or teams of two (2v2 needs 4 players, 2v2v2 needs 6).",
    ),
    OptionSpec("seven", "split", ("split", "single"), "Split the 7 over several pawns, or not."),
    OptionSpec("quick_start", False, (False, True), "Every colour starts with one pawn out."),
    OptionSpec("variant5", False, (False, True), "The 5 may move any pawn on the ring."),
)

GAME = RaceGame(NAME, PLAYER_COUNTS, OPTIONS)

new_game = GAME.new_game
from_position = GAME.from_position
to_position = GAME.to_position
legal_moves = GAME.legal_moves
seven_starts = GAME.seven_starts
stuck_reason = GAME.stuck_reason
parse_move = GAME.parse_move
apply = GAME.apply
view = GAME.view
outcome = GAME.outcome
seats_to_act = GAME.seats_to_act
auto_action = GAME.auto_action
leave = GAME.leave
sample_state = GAME.sample_state

__all__ = [
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "Move",
    "State",
    "apply",
    "auto_action",
    "from_position",
    "leave",
    "legal_moves",
    "new_game",
    "outcome",
    "parse_move",
    "sample_state",
    "seats_to_act",
    "seven_starts",
    "stuck_reason",
    "to_position",
    "view",
]
