"""Tournaments as plain values and pure rules: who meets whom, points, standings.

Nothing here talks to a table, a database or Discord: :mod:`bot.service.tournaments` opens the
tables these rules ask for and feeds their results back.

- :mod:`.model`: a tournament's settings, entrants, rounds and matches (JSON-able).
- :mod:`.pairing`: the next round of a Swiss, knockout or round-robin tournament.
- :mod:`.standings`: points per place and the standings with their tie-breaks.
"""

from bot.tournament.model import (
    Entrant,
    Format,
    Match,
    Round,
    Settings,
    Tournament,
    total_rounds,
)
from bot.tournament.pairing import next_round
from bot.tournament.standings import Standing, champion, standings

__all__ = [
    "Entrant",
    "Format",
    "Match",
    "Round",
    "Settings",
    "Standing",
    "Tournament",
    "champion",
    "next_round",
    "standings",
    "total_rounds",
]
