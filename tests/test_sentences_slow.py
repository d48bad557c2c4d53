"""The sentence lint over a hundred seeded games of every family (issue 18), in en, de, hu.

Each family plays 100 seeded games through the table service, a scripted person against easy
bots: four to the end (final scoring, winners, the lobby afterwards) and ninety-six for the
person's first 10 decisions, so that the openings of many deals and tiles are read too (a
whole race game takes a second here; a hundred of them per family would take minutes).
"""

from __future__ import annotations

import pytest

from tests.sentence_lint import FAMILIES, Collected, play_and_collect

GAMES = 100
FULL_EVERY = 25
OPENING = 10


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_a_hundred_games_of_each_family_read_well(family: str) -> None:
    collected = Collected()
    for seed in range(GAMES):
        turns = None if seed % FULL_EVERY == 0 else OPENING
        await play_and_collect(family, 1000 + seed, collected, person_turns=turns)
    assert sum(len(texts) for texts in collected.texts.values()) > 100
    report = collected.report()
    assert report == [], "\n".join(report[:40])
