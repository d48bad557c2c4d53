"""Dog, as played on BrettspielWelt, with the Brändi Dog preset (race-games.md parts C and D).

The rules live in :mod:`engine.race`; this module configures them for Dog and exposes the
game protocol of :mod:`engine.protocol` (plus ``seven_starts``).
"""

from __future__ import annotations

from engine.protocol import OptionSpec
from engine.race.api import RaceGame
from engine.race.move import Move
from engine.race.state import State

NAME = "dog"
PLAYER_COUNTS: tuple[int, ...] = (4, 6)
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "ruleset",
        "bsw",
        ("bsw", "braendi"),
        "BrettspielWelt rules, or the official Brändi Dog rules (D-1.3).",
    ),
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
