"""The queries of results and ratings, shared by both back ends (``?`` parameters; PostgreSQL
renumbers them), and the conversions between their rows and :mod:`bot.after_game.ratings` values."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.after_game.game_result import GameResult
from bot.after_game.ratings import Rating, new_rating

if TYPE_CHECKING:
    from bot.storage.base import RateFunction as RateFunction

INSERT_RESULT = (
    "INSERT INTO results (table_id, guild_id, game, finished_at, rated, summary) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING"
)
INSERT_PLAYER = (
    "INSERT INTO result_players (result_id, seat, guild_id, game, player, place, mu_before, "
    "mu_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, game, player, mu, sigma, ordinal, games, wins) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, player) DO UPDATE SET "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
    "games = excluded.games, wins = excluded.wins"
)
RATING_COLUMNS = "player, mu, sigma, games, wins"
LEADERBOARD = (
    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
    "ORDER BY ordinal DESC, player LIMIT ?"
)
RATING_OF = f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND player = ?"
PLACES_ABOVE = "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND ordinal > ?"
RATINGS_OF_PLAYER = (
    f"SELECT game, {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND player = ? ORDER BY game"
)
LOAD_RESULT = "SELECT summary FROM results WHERE table_id = ?"
UNPOSTED = "SELECT table_id FROM results WHERE posted = 0 ORDER BY id"
MARK_POSTED = "UPDATE results SET posted = 1 WHERE table_id = ?"
RATING_CHANGES = (
    "SELECT p.player, p.mu_before, p.mu_after FROM result_players p "
    "JOIN results r ON r.id = p.result_id WHERE r.table_id = ? AND p.mu_after IS NOT NULL "
    "ORDER BY p.seat"
)
FINISHED_WITHOUT_RESULT = (
    "SELECT t.id FROM tables t LEFT JOIN results r ON r.table_id = t.id "
    "WHERE t.phase = 'finished' AND r.id IS NULL ORDER BY t.updated_at, t.id"
)


def ratings_of_query(guild_id: int, game: str, players: Sequence[str]) -> tuple[str, list[Any]]:
    """The stored ratings of ``players`` in one game of one guild."""
    marks = ", ".join("?" for _ in players)
    query = f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
    return query + f"AND player IN ({marks})", [guild_id, game, *players]


def history_query(
    guild_id: int, player: str | None, game: str | None, limit: int, offset: int
) -> tuple[str, list[Any]]:
    """A guild's results, or one player's, newest first, one page."""
    if player is None:
        query = "SELECT summary FROM results WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if game is not None:
            query += " AND game = ?"
            params.append(game)
        return query + " ORDER BY id DESC LIMIT ? OFFSET ?", [*params, limit, offset]
    query = (
        "SELECT r.summary FROM result_players p JOIN results r ON r.id = p.result_id "
        "WHERE p.guild_id = ? AND p.player = ?"
    )
    params = [guild_id, player]
    if game is not None:
        query += " AND p.game = ?"
        params.append(game)
    return query + " ORDER BY p.result_id DESC LIMIT ? OFFSET ?", [*params, limit, offset]


def all_results_query(guild_id: int | None) -> tuple[str, list[Any]]:
    """Every stored result (of one guild), in the order they were stored."""
    if guild_id is None:
        return "SELECT summary FROM results ORDER BY id", []
    return "SELECT summary FROM results WHERE guild_id = ? ORDER BY id", [guild_id]


def result_values(result: GameResult) -> list[Any]:
    """The parameters of :data:`INSERT_RESULT`."""
    summary = json.dumps(result.to_json(), sort_keys=True)
    return [
        result.table_id,
        result.guild_id,
        result.game,
        result.finished_at,
        int(result.rated),
        summary,
    ]


def player_rows(
    result: GameResult,
    result_id: int,
    before: Mapping[str, Rating],
    after: Mapping[str, Rating],
) -> list[list[Any]]:
    """The parameters of :data:`INSERT_PLAYER` for every player of a result, with the
    ``mu`` of their rating before and after it (None for both when it was not rated)."""
    rows = []
    for s in result.seats:
        if s.player is None:
            continue
        new = after.get(s.player)
        old = before.get(s.player) or (new_rating(s.player) if new is not None else None)
        mu_before = None if new is None or old is None else old.mu
        mu_after = None if new is None else new.mu
        rows.append(
            [
                result_id,
                s.seat,
                result.guild_id,
                result.game,
                s.player,
                s.place,
                mu_before,
                mu_after,
            ]
        )
    return rows


def rating_values(guild_id: int, game: str, rating: Rating) -> list[Any]:
    """The parameters of :data:`UPSERT_RATING`."""
    return [
        guild_id,
        game,
        rating.player,
        rating.mu,
        rating.sigma,
        rating.ordinal,
        rating.games,
        rating.wins,
    ]


def all_rating_values(ratings: Mapping[tuple[int, str], Mapping[str, Rating]]) -> list[list[Any]]:
    """The parameters of :data:`UPSERT_RATING` for ``{(guild, game): {player: rating}}``."""
    return [
        rating_values(guild, game, rating)
        for (guild, game), by_player in ratings.items()
        for rating in by_player.values()
    ]


def rating_from_row(row: Sequence[Any]) -> Rating:
    """A :class:`Rating` from a row of :data:`RATING_COLUMNS`."""
    player, mu, sigma, games, wins = tuple(row)
    return Rating(str(player), float(mu), float(sigma), int(games), int(wins))


def result_from_summary(summary: str) -> GameResult:
    """A :class:`GameResult` from its stored JSON."""
    return GameResult.from_json(json.loads(summary))


def players_of(result: GameResult) -> list[str]:
    """The distinct players of a result, in seat order."""
    return list(dict.fromkeys(s.player for s in result.seats if s.player is not None))


class ResultsReadsMixin:
    """The reads of results and ratings, written once over a back end's :meth:`_rows`."""

    async def _rows(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def load_result(self, table_id: int) -> GameResult | None:
        """The result of a table, or None."""
        rows = await self._rows(LOAD_RESULT, [table_id])
        return result_from_summary(rows[0][0]) if rows else None

    async def rating_changes(self, table_id: int) -> dict[str, tuple[float, float]]:
        """How a table's result moved each rated player's ``mu``: player -> (before, after)."""
        rows = await self._rows(RATING_CHANGES, [table_id])
        return {str(p): (float(b), float(a)) for p, b, a in rows}

    async def history(
        self,
        guild_id: int,
        *,
        player: str | None = None,
        game: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameResult]:
        """Results of a guild (or of one player there), newest first."""
        query, params = history_query(guild_id, player, game, limit, offset)
        return [result_from_summary(row[0]) for row in await self._rows(query, params)]

    async def all_results(self, guild_id: int | None = None) -> list[GameResult]:
        """Every result (of one guild), in the order they were stored."""
        query, params = all_results_query(guild_id)
        return [result_from_summary(row[0]) for row in await self._rows(query, params)]

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[Rating]:
        """The best ratings of a game on a guild (by ``mu - 3 sigma``)."""
        rows = await self._rows(LEADERBOARD, [guild_id, game, limit])
        return [rating_from_row(row) for row in rows]

    async def rating(self, guild_id: int, game: str, player: str) -> tuple[int, Rating] | None:
        """A player's place on the leaderboard and rating, or None if unrated."""
        rows = await self._rows(RATING_OF, [guild_id, game, player])
        if not rows:
            return None
        rating = rating_from_row(rows[0])
        above = await self._rows(PLACES_ABOVE, [guild_id, game, rating.ordinal])
        return int(above[0][0]) + 1, rating

    async def ratings_of(self, guild_id: int, player: str) -> dict[str, Rating]:
        """A player's rating in every game they played on a guild."""
        rows = await self._rows(RATINGS_OF_PLAYER, [guild_id, player])
        return {str(row[0]): rating_from_row(row[1:]) for row in rows}

    async def unposted_results(self) -> list[int]:
        """Tables whose results post has not reached Discord yet, oldest first."""
        return [int(row[0]) for row in await self._rows(UNPOSTED, [])]

    async def finished_without_result(self) -> list[int]:
        """Finished tables whose result is not stored yet (a crash came in between)."""
        return [int(row[0]) for row in await self._rows(FINISHED_WITHOUT_RESULT, [])]
