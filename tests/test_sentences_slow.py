"""The sentence lint over a hundred seeded games of every family (issue 18), in en, de, hu.

Each family plays 100 seeded games through the table service, a scripted person against easy
bots. Some go to the end (final scoring, winners, the results, the lobby afterwards): one race
game, whose endings differ little (the quick test plays another), and four Carcassonne games,
which are short and whose final scoring differs much. The others are openings of about forty
moves (ten of the person's decisions at four seats, six at six), so that the openings of many
deals and tiles are read too (a whole race game takes a second or two here; a hundred of them
per family would take minutes). The images are drawn for two openings per family (at every
decision) and for the games played to the end (every 50th decision and the end), since
drawing costs more than playing. ``poeppel play`` plays nine openings per family, three per
language, and the Carcassonne games and a team game of Dog to the end.
"""

from __future__ import annotations

import pytest

from i18n.catalog import LOCALES
from tests.sentence_lint import FAMILIES, Collected, play_and_collect, play_console_and_collect

GAMES = 100
#: The games played to the end, of a race game and of Carcassonne.
FULL = {"tock": 1, "dog": 1, "carcassonne": 4}
#: The person's decisions of an opening at four seats (fewer at more: the same moves).
OPENING = 10
DRAW_EVERY = 50
FULL_DRAW = 50
CONSOLE_GAMES = 9
#: The families ``poeppel play`` plays to the end, in these languages (a whole race game takes
#: seconds in the terminal: the other endings are read in the service's games).
CONSOLE_TO_THE_END = {
    "carcassonne": LOCALES,
    "carcassonne-expansions": ("hu",),
    "dog": ("de",),
}


def opening(family: str) -> int:
    """The person's decisions in an opening of ``family``: about forty moves in all."""
    players = FAMILIES[family][1]
    return OPENING * 4 // max(4, players)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_a_hundred_games_of_each_family_read_well(family: str) -> None:
    collected = Collected()
    full = FULL[FAMILIES[family][0]]
    for seed in range(full):
        await play_and_collect(family, 1000 + seed, collected, draw=FULL_DRAW)
    for seed in range(full, GAMES):
        draw = 1 if seed % DRAW_EVERY == 1 else 0
        await play_and_collect(family, 1000 + seed, collected, opening(family), draw=draw)
    assert sum(len(texts) for texts in collected.texts.values()) > 100
    report = collected.report()
    assert report == [], "\n".join(report[:40])


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
async def test_poeppel_play_over_many_games_reads_well(family: str) -> None:
    collected = Collected()
    for seed in range(CONSOLE_GAMES):
        locale = LOCALES[seed % len(LOCALES)]
        people = 2 if seed % 4 == 1 else 1  # hot seat
        saved = seed % 4 == 2  # stopped, then continued with --resume
        await play_console_and_collect(
            family, 2000 + seed, locale, collected, opening(family), people=people, saved=saved
        )
    for locale in CONSOLE_TO_THE_END.get(family, ()):
        await play_console_and_collect(family, 3000, locale, collected)
    report = collected.report()
    assert report == [], "\n".join(report[:40])
