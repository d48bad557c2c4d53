"""Rows and queries of tournaments, shared by both back ends (``?`` parameters)."""

from __future__ import annotations

import json
from typing import Any

from bot.tournament.model import Tournament
from bot.tournament.record import TournamentPhase, TournamentRecord
from bot.tournament.season import Season

COLUMNS = (
    "guild_id",
    "channel_id",
    "host_id",
    "game",
    "phase",
    "version",
    "setup",
    "state",
    "created_at",
    "updated_at",
)
SELECT = "SELECT id, " + ", ".join(COLUMNS) + " FROM tournaments"
INSERT = (
    "INSERT INTO tournaments ("
    + ", ".join(COLUMNS)
    + ") VALUES ("
    + ", ".join("?" for _ in COLUMNS)
    + ")"
)
UPDATE = (
    "UPDATE tournaments SET phase = ?, version = ?, setup = ?, state = ?, updated_at = ? "
    "WHERE id = ? AND version = ?"
)
SELECT_LINK = (
    "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ? AND slot = ?"
)
INSERT_LINK = (
    "INSERT INTO tournament_tables (tournament_id, round, slot, table_id) VALUES (?, ?, ?, ?)"
)
SELECT_LINKS = "SELECT round, slot, table_id FROM tournament_tables WHERE tournament_id = ?"


def values(record: TournamentRecord) -> list[Any]:
    """The INSERT parameters of ``record``."""
    return [
        record.guild_id,
        record.channel_id,
        record.host_id,
        record.game,
        str(record.phase),
        record.version,
        json.dumps(record.setup),
        json.dumps(record.state.to_json()),
        record.created_at,
        record.updated_at,
    ]


def update_values(record: TournamentRecord, expected_version: int) -> list[Any]:
    """The UPDATE parameters of ``record``, guarded by ``expected_version``."""
    return [
        str(record.phase),
        record.version,
        json.dumps(record.setup),
        json.dumps(record.state.to_json()),
        record.updated_at,
        record.id,
        expected_version,
    ]


def from_row(row: tuple[Any, ...]) -> TournamentRecord:
    """A record from a SELECT row."""
    return TournamentRecord(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        host_id=int(row[3]),
        game=str(row[4]),
        phase=TournamentPhase(row[5]),
        version=int(row[6]),
        setup=json.loads(row[7]),
        state=Tournament.from_json(json.loads(row[8])),
        created_at=float(row[9]),
        updated_at=float(row[10]),
    )


def list_query(guild_id: int | None, active: bool) -> tuple[str, list[Any]]:
    """SELECT tournaments of a guild (every guild: ``None``), only active ones by default."""
    from bot.tournament.record import ACTIVE_TOURNAMENT_PHASES

    clauses: list[str] = []
    params: list[Any] = []
    if guild_id is not None:
        clauses.append("guild_id = ?")
        params.append(guild_id)
    if active:
        clauses.append("phase IN (" + ", ".join("?" for _ in ACTIVE_TOURNAMENT_PHASES) + ")")
        params.extend(ACTIVE_TOURNAMENT_PHASES)
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    return SELECT + where + " ORDER BY id", params


INSERT_SEASON = (
    "INSERT INTO seasons (guild_id, game, name, start_at, end_at) VALUES (?, ?, ?, ?, ?)"
)
SELECT_SEASONS = "SELECT id, guild_id, game, name, start_at, end_at FROM seasons WHERE guild_id = ?"


def season_values(season: Season) -> list[Any]:
    """The INSERT parameters of ``season``."""
    return [season.guild_id, season.game, season.name, season.start_at, season.end_at]


def season_from_row(row: tuple[Any, ...]) -> Season:
    """A season from a SELECT row."""
    return Season(int(row[0]), int(row[1]), str(row[2]), str(row[3]), float(row[4]), float(row[5]))


def seasons_query(guild_id: int, game: str | None) -> tuple[str, list[Any]]:
    """SELECT a guild's seasons (of one game), oldest first."""
    if game is None:
        return SELECT_SEASONS + " ORDER BY start_at, id", [guild_id]
    return SELECT_SEASONS + " AND game = ? ORDER BY start_at, id", [guild_id, game]
