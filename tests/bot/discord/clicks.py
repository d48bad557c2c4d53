"""Counting a player's clicks per move, as Discord sees them.

A click is an interaction of the player on a component (a button press or a select pick):
the fake Discord records every interaction, so the count does not depend on how the scripted
player got to its move. :class:`ClickCounter` takes the count before a decision and after it;
:class:`ClickLog` keeps one entry per decision and prints the figures the issue asks for
(median, 90th percentile, max).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from tests.fakediscord.scripting import ScriptedUser
from tests.fakediscord.server import FakeDiscord

#: Discord's interaction type of a component click.
COMPONENT = 3


def clicks_of(fake: FakeDiscord, user: ScriptedUser) -> int:
    """How many component interactions ``user`` sent so far."""
    return sum(
        1 for i in fake.interactions.values() if i.user.id == user.id and i.type == COMPONENT
    )


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision a person made: what kind, how many clicks, and the 7's segments."""

    kind: str  # "move", "seven", "pick", "tile"
    clicks: int
    segments: int = 0
    figure_possible: bool = True


@dataclass
class ClickLog:
    """Every decision of a game, with its clicks."""

    decisions: list[Decision] = field(default_factory=list)

    def add(self, decision: Decision) -> None:
        """Record one decision."""
        self.decisions.append(decision)

    def clicks(self, *kinds: str) -> list[int]:
        """The click counts of the decisions of ``kinds`` (every kind when none is given)."""
        return [d.clicks for d in self.decisions if not kinds or d.kind in kinds]

    def figures(self, *kinds: str) -> tuple[float, int, int]:
        """(median, 90th percentile, max) of the clicks of ``kinds``."""
        counts = sorted(self.clicks(*kinds))
        assert counts, f"no decisions of kinds {kinds}"
        p90 = counts[max(0, math.ceil(0.9 * len(counts)) - 1)]
        return statistics.median(counts), p90, counts[-1]

    def summary(self, game: str) -> str:
        """One line per kind of decision: ``tock moves: n=…, median …, p90 …, max …``."""
        lines = []
        for kinds, name in (((), "all"), (("move", "seven"), "plays"), (("seven",), "sevens")):
            if not self.clicks(*kinds):
                continue
            median, p90, top = self.figures(*kinds)
            count = len(self.clicks(*kinds))
            lines.append(f"{game} {name}: n={count} median={median} p90={p90} max={top}")
        tiles = [d for d in self.decisions if d.kind == "tile"]
        if tiles:
            spots = [d.clicks for d in tiles if d.figure_possible]
            none = [d.clicks for d in tiles if not d.figure_possible]
            lines.append(
                f"{game} tiles: with a figure spot n={len(spots)} max={max(spots, default=0)}, "
                f"without n={len(none)} max={max(none, default=0)}"
            )
        sevens = [d for d in self.decisions if d.kind == "seven"]
        if sevens:
            spare = max(d.clicks - d.segments for d in sevens)
            walks = max(d.segments for d in sevens)
            lines.append(f"{game} sevens: up to {walks} walks, clicks - segments <= {spare}")
        return "\n".join(lines)


def assert_two_clicks(log: ClickLog) -> None:
    """The issue's bar: a median of at most two clicks per move, and a split 7 at most one
    click more than its number of segments (the card, then each segment or the whole split)."""
    median, _p90, _max = log.figures()
    assert median <= 2, f"median {median} clicks per move"
    for decision in log.decisions:
        if decision.kind == "seven":
            assert decision.clicks <= decision.segments + 1, decision
