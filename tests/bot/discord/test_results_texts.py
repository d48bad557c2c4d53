"""The words of results, ratings and history in English, German and Hungarian."""

from __future__ import annotations

import pytest

from bot.after_game.game_result import GameResult, SeatResult
from bot.after_game.ratings import Rating
from bot.after_game.standings import HistoryPage, Leaderboard, PlayerStats
from bot.discord_ui.results_texts import (
    channel_line,
    history_text,
    leaderboard_text,
    results_post,
    standings_lines,
    stats_text,
)

RESULT = GameResult(
    7,
    1,
    2,
    "dog",
    {},
    1_800_000_000.0,
    (
        SeatResult(0, "Ann", 1, "u:10", user_id=10, team=0, score=4),
        SeatResult(1, "Bot 2 (hard)", 2, "bot:hard", bot_level="hard", team=1, score=3),
        SeatResult(2, "Cy", 1, "u:12", user_id=12, team=0, score=4),
        SeatResult(3, "Di", 3, "u:13", user_id=13, team=1, left=True, score=0),
    ),
    (0, 2),
    teams=((0, 2), (1, 3)),
    moves=311,
    hands=9,
)
RATING = Rating("u:10", 27.25, 6.5, 3, 2)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en",
            ("final standings", "1. Ann & Cy — 8 pawns home", "Di left", "9 hands", "Bot (hard)"),
        ),
        (
            "de",
            ("Endstand", "1. Ann & Cy — 8 Pöppel im Ziel", "Di hat", "9 Runden", "Bot (schwer)"),
        ),
        (
            "hu",
            (
                "végeredmény",
                "1. hely: Ann & Cy — 8 bábu célban",
                "Di kilépett",
                "9 leosztás",
                "Bot (nehéz)",
            ),
        ),
    ],
)
def test_the_results_post_in_each_language(locale: str, words: tuple[str, ...]) -> None:
    text = results_post(RESULT, locale)
    bot = {"en": "Bot (hard)", "de": "Bot (schwer)", "hu": "Bot (nehéz)"}[locale]
    for word in (*words, bot):
        assert word in text
    assert "results." not in text  # no key left unsaid
    moved = results_post(RESULT, locale, {"u:10": (25.0, 27.5), "bot:hard": (25.0, 23.0)})
    point = "." if locale == "en" else ","  # numbers as the reader writes them
    assert f"Ann 27{point}5 (+2{point}5)" in moved
    assert f"{bot} 23{point}0 (−2{point}0)" in moved


@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_stats_leaderboard_and_history_leave_no_key_unsaid(locale: str) -> None:
    stats = stats_text(PlayerStats("u:10", {"dog": RATING}, (RESULT,)), "<@10>", None, locale)
    board = leaderboard_text(Leaderboard("dog", (RATING,), (1, RATING)), locale)
    history = history_text(HistoryPage((RESULT,), 1, True), "<@10>", "dog", "u:10", locale)
    line = channel_line(RESULT, 99, locale)
    for text in (stats, board, history, line):
        assert "results." not in text
        assert "{" not in text
    assert ("27.2 ± 6.5" if locale == "en" else "27,2 ± 6,5") in stats
    assert "<t:1800000000:d>" in history  # Discord shows the date in the reader's language
    assert "<#99>" in line
    assert "#7" in history
    if locale == "de":
        assert "Wertung" in stats
        assert "Seite 2" in history
    if locale == "hu":
        assert "ranglista" in board


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        ("en", "1. Bot 2 (easy) & Bot 4 (easy) — 8 pawns home"),
        ("de", "1. Bot 2 (leicht) & Bot 4 (leicht) — 8 Pöppel im Ziel"),
        ("hu", "1. hely: 2.\u00a0bot (könnyű) & 4.\u00a0bot (könnyű) — 8 bábu célban"),
    ],
)
def test_bots_keep_the_names_the_table_gave_them(locale: str, line: str) -> None:
    """Issue 31: "Bot 2" in the thread is "Bot 2" in the results, not "Bot (easy)"."""
    seats = (
        SeatResult(0, "Ann", 2, "u:10", user_id=10, team=0, score=3),
        SeatResult(1, "", 1, "bot:easy", bot_level="easy", team=1, score=4, bot_number=2),
        SeatResult(2, "Cy", 2, "u:12", user_id=12, team=0, score=3),
        SeatResult(3, "", 1, "bot:easy", bot_level="easy", team=1, score=4, bot_number=4),
    )
    result = GameResult(
        1, 1, 1, "dog", {}, 0.0, seats, winners=(1, 3), teams=((0, 2), (1, 3)), hands=9
    )
    assert line in standings_lines(result, locale)
    channel = channel_line(result, 5, locale)
    assert {"en": "won", "de": "haben gewonnen", "hu": "nyert"}[locale] in channel
