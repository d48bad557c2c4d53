"""Words for what a game leaves behind: the results post, ``/stats``, ``/leaderboard`` and
``/history``. Pure functions of results and ratings (public data), in the reader's locale."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from babel.numbers import format_decimal

from bot.after_game.game_result import GameResult, SeatResult, seats_by_team
from bot.after_game.ratings import Rating
from bot.after_game.standings import HistoryPage, Leaderboard, PlayerStats
from i18n import normalise_locale, t, tn
from i18n.catalog import game_terms

#: Discord's limit for a message's text.
MAX_TEXT = 2000


def number(value: float, locale: str) -> str:
    """``27.3`` with one decimal, written as ``locale`` writes numbers (``27,3`` in German)."""
    return format_decimal(round(value, 1), format="0.0", locale=normalise_locale(locale))


def game_name(game: str, locale: str) -> str:
    """A game's title in ``locale``."""
    return t(f"game.{game}", locale)


def player_name(player: str, locale: str) -> str:
    """How to name a rated player: a mention for a person, the level for bots."""
    kind, _, rest = player.partition(":")
    if kind == "u":
        return f"<@{rest}>"
    return t("results.bot", locale, level=t(f"results.level.{rest}", locale))


def seat_label(seat: SeatResult, locale: str) -> str:
    """A seat's name in a result, the name the table called it: the person's name, or the
    bot's (``Bot 2``) with its level in words (``Bot 2 (easy)``)."""
    if seat.bot_level is not None:
        level = t(f"results.level.{seat.bot_level}", locale)
        if not seat.name or seat.bot_number is not None:
            number = seat.bot_number if seat.bot_number is not None else seat.seat + 1
            return t("results.bot_numbered", locale, number=number, level=level)
        return t("results.bot", locale, level=level)
    return seat.name or t("seat.player", locale, number=seat.seat + 1)


def result_names(result: GameResult, locale: str) -> list[str]:
    """The display names of a result's seats, in seat order (for the results image)."""
    return [seat_label(s, locale) for s in sorted(result.seats, key=lambda s: s.seat)]


def _names(seats: Sequence[SeatResult], locale: str) -> str:
    return t("results.and", locale).join(seat_label(s, locale) for s in seats)


def _score_words(result: GameResult, seats: Sequence[SeatResult], locale: str) -> str:
    if result.game == "carcassonne":
        return tn("results.points", seats[0].score, locale)
    home = sum(s.score for s in seats)
    with game_terms(result.game):  # German Dog: Pöppel
        return tn("results.pawns_home", home, locale)


def standings_lines(result: GameResult, locale: str) -> list[str]:
    """One line per team (or seat): ``1. Ann & Cy — 8 pawns home``, a leaver marked."""
    lines = []
    for group in seats_by_team(result):
        staying = [s for s in group if not s.left]
        gone = [s for s in group if s.left]
        place = min(s.place for s in staying or group)
        line = t(
            "results.line",
            locale,
            place=place,
            names=_names(staying or group, locale),
            score=_score_words(result, group, locale),
        )
        if gone and staying:
            line += " " + t("results.left_note", locale, names=_names(gone, locale))
        lines.append(line)
    return lines


def rating_changes_line(
    result: GameResult, changes: Mapping[str, tuple[float, float]], locale: str
) -> str:
    """``Ratings: Ann 27.0 (+2.0) · Bob 23.0 (−2.0)``, in seat order; empty when unrated."""
    parts = []
    for player, (before, after) in changes.items():
        seat = next((s for s in result.seats if s.player == player), None)
        if seat is None:
            continue
        delta = after - before
        sign = "+" if delta >= 0 else "−"
        parts.append(
            t(
                "results.rating_change",
                locale,
                name=seat_label(seat, locale),
                rating=number(after, locale),
                change=f"{sign}{number(abs(delta), locale)}",
            )
        )
    return t("results.rating_changes", locale, changes=" · ".join(parts)) if parts else ""


def results_post(
    result: GameResult,
    locale: str,
    changes: Mapping[str, tuple[float, float]] | None = None,
) -> str:
    """The text of the results post in the thread (with how the ratings moved)."""
    head = t("results.post_title", locale, game=game_name(result.game, locale))
    lines = [f"**{head}**", *standings_lines(result, locale)]
    if result.game == "carcassonne":
        lines.append(tn("results.moves", result.moves, locale))
    else:
        hands = tn("results.hands", result.hands, locale)
        lines.append(hands + " · " + tn("results.moves", result.moves, locale))
    if not result.rated:
        lines.append(t("results.unrated", locale))
    elif changes:
        lines.append(rating_changes_line(result, changes, locale))
    return "\n".join(lines)[:MAX_TEXT]


def channel_line(result: GameResult, thread_id: int | None, locale: str) -> str:
    """The short line in the table's channel."""
    winners = [s for s in result.seats if s.place == 1 and not s.left]
    where = f"<#{thread_id}>" if thread_id is not None else ""
    return t(
        "results.channel_line",
        locale,
        game=game_name(result.game, locale),
        table=result.table_id,
        names=_names(winners, locale),
        thread=where,
        count=len(winners),
    )


def rating_words(rating: Rating, locale: str) -> str:
    """``27.1 ± 2.3`` with its games and wins."""
    return t(
        "results.rating",
        locale,
        mu=number(rating.mu, locale),
        sigma=number(rating.sigma, locale),
        games=tn("results.games", rating.games, locale),
        wins=tn("results.wins", rating.wins, locale),
    )


def _history_line(result: GameResult, locale: str, player: str | None = None) -> str:
    order = " · ".join(
        t(
            "results.short_place",
            locale,
            place=min(s.place for s in group),
            names=_names(group, locale),
        )
        for group in seats_by_team(result)
    )
    line = t(
        "results.history_line",
        locale,
        table=result.table_id,
        game=game_name(result.game, locale),
        when=f"<t:{int(result.finished_at)}:d>",
        order=order,
    )
    if player is not None:
        mine = [s for s in result.seats if s.player == player]
        if mine:
            sides = len(result.teams) if result.teams else len(result.seats)
            place = t("results.your_place", locale, place=mine[0].place, seats=sides)
            line += f" — {place}"
    return line


def stats_text(stats: PlayerStats, who: str, game: str | None, locale: str) -> str:
    """``/stats``: games, wins and rating per game, then the latest results."""
    lines = [f"**{t('results.stats_title', locale, name=who)}**"]
    if not stats.ratings and not stats.recent:
        scope = game_name(game, locale) if game else ""
        key = "results.stats_none_game" if game else "results.stats_none"
        lines.append(t(key, locale, name=who, game=scope))
        return "\n".join(lines)
    for name, rating in sorted(stats.ratings.items()):
        lines.append(f"{game_name(name, locale)}: {rating_words(rating, locale)}")
    if stats.recent:
        lines.append("")
        lines.append(t("results.recent", locale))
        lines.extend(_history_line(r, locale, stats.player) for r in stats.recent)
    return "\n".join(lines)[:MAX_TEXT]


def leaderboard_text(board: Leaderboard, locale: str) -> str:
    """``/leaderboard``: the top ten and the caller's own place."""
    lines = [f"**{t('results.leaderboard_title', locale, game=game_name(board.game, locale))}**"]
    if not board.top:
        lines.append(t("results.leaderboard_empty", locale))
        return "\n".join(lines)
    for place, rating in enumerate(board.top, start=1):
        name = player_name(rating.player, locale)
        lines.append(f"{place}. {name} — {rating_words(rating, locale)}")
    lines.append("")
    if board.mine is None:
        lines.append(t("results.not_rated", locale))
    else:
        place, rating = board.mine
        lines.append(
            t("results.your_rank", locale, place=place, rating=rating_words(rating, locale))
        )
    lines.append(t("results.rating_help", locale))
    return "\n".join(lines)[:MAX_TEXT]


def history_text(
    page: HistoryPage, who: str | None, game: str | None, player: str | None, locale: str
) -> str:
    """``/history``: one page of finished tables, newest first."""
    scope = game_name(game, locale) if game else t("results.all_games", locale)
    if who is None:
        title = t("results.history_title", locale, games=scope)
    else:
        title = t("results.history_title_member", locale, games=scope, name=who)
    lines = [f"**{title}**"]
    if not page.results:
        lines.append(t("results.history_empty", locale))
    lines.extend(_history_line(r, locale, player) for r in page.results)
    if page.page > 0 or page.more:
        lines.append(t("results.page", locale, page=page.page + 1))
    return "\n".join(lines)[:MAX_TEXT]
