"""Conversion between :class:`TableRecord` and database rows (the log's are in
:mod:`bot.storage.log_rows`), and the queries both back ends share (written with ``?``
parameters; PostgreSQL renumbers them)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.model.outbox import Intent, OutboxItem
from bot.model.table import Phase, Seat, TableRecord

#: The columns of ``tables`` that a write sets, in order (``id`` excluded).
TABLE_COLUMNS: tuple[str, ...] = (
    "guild_id",
    "channel_id",
    "thread_id",
    "game",
    "options",
    "seed",
    "host_id",
    "seats",
    "players",
    "phase",
    "version",
    "turn_time",
    "absent_policy",
    "deadline",
    "reminded",
    "log_length",
    "winners",
    "extra",
    "created_at",
    "updated_at",
)

SELECT_TABLE = "SELECT id, " + ", ".join(TABLE_COLUMNS) + " FROM tables"
INSERT_TABLE = (
    "INSERT INTO tables ("
    + ", ".join(TABLE_COLUMNS)
    + ") VALUES ("
    + ", ".join("?" for _ in TABLE_COLUMNS)
    + ")"
)
UPDATE_TABLE = (
    "UPDATE tables SET "
    + ", ".join(f"{c} = ?" for c in TABLE_COLUMNS if c not in ("thread_id", "created_at"))
    + " WHERE id = ? AND version = ?"
)
ACTIVE_PHASES = (str(Phase.LOBBY), str(Phase.PLAYING))
#: Phases whose thread shows the game's board (the last one stays after the end).
BOARD_PHASES = (str(Phase.PLAYING), str(Phase.FINISHED))
SET_BOARD = (
    "UPDATE tables SET board_version = ?, board_message_id = ? WHERE id = ? AND board_version <= ?"
)
SELECT_BOARD = "SELECT board_version, board_message_id FROM tables WHERE id = ?"
SELECT_WITHOUT_BOARD = (
    SELECT_TABLE
    + " WHERE phase IN (?, ?) AND thread_id IS NOT NULL AND board_version < version ORDER BY id"
)


def board_from_row(row: Sequence[Any] | None) -> tuple[int, int | None] | None:
    """``(board_version, board_message_id)`` from a row of :data:`SELECT_BOARD`."""
    if row is None:
        return None
    version, message = tuple(row)
    return int(version), None if message is None else int(message)


def list_tables_query(guild_id: int, channel_id: int | None, active: bool) -> tuple[str, list[Any]]:
    """The query (``?`` placeholders) and parameters listing a guild's or channel's tables."""
    query = SELECT_TABLE + " WHERE guild_id = ?"
    params: list[Any] = [guild_id]
    if channel_id is not None:
        query += " AND channel_id = ?"
        params.append(channel_id)
    if active:
        query += " AND phase IN (?, ?)"
        params.extend(ACTIVE_PHASES)
    return query + " ORDER BY id", params


def table_values(record: TableRecord) -> list[Any]:
    """The values of :data:`TABLE_COLUMNS` for ``record``."""
    return [
        record.guild_id,
        record.channel_id,
        record.thread_id,
        record.game,
        json.dumps(record.options, sort_keys=True),
        record.seed,
        record.host_id,
        json.dumps([seat.to_json() for seat in record.seats]),
        record.players,
        str(record.phase),
        record.version,
        record.turn_time,
        record.absent_policy,
        record.deadline,
        int(record.reminded),
        record.log_length,
        json.dumps(list(record.winners)),
        json.dumps(record.extra, sort_keys=True),
        record.created_at,
        record.updated_at,
    ]


def update_values(record: TableRecord, expected_version: int) -> list[Any]:
    """The parameters of :data:`UPDATE_TABLE`."""
    values = dict(zip(TABLE_COLUMNS, table_values(record), strict=True))
    del values["thread_id"], values["created_at"]
    return [*values.values(), record.id, expected_version]


def record_from_row(row: Sequence[Any] | Mapping[str, Any]) -> TableRecord:
    """Build a record from a row of :data:`SELECT_TABLE`."""
    values = list(row.values()) if isinstance(row, Mapping) else list(row)
    data = dict(zip(("id", *TABLE_COLUMNS), values, strict=True))
    return TableRecord(
        id=int(data["id"]),
        guild_id=int(data["guild_id"]),
        channel_id=int(data["channel_id"]),
        thread_id=None if data["thread_id"] is None else int(data["thread_id"]),
        game=data["game"],
        options=json.loads(data["options"]),
        seed=int(data["seed"]),
        host_id=int(data["host_id"]),
        seats=tuple(Seat.from_json(s) for s in json.loads(data["seats"])),
        players=int(data["players"]),
        phase=Phase(data["phase"]),
        version=int(data["version"]),
        turn_time=int(data["turn_time"]),
        absent_policy=data["absent_policy"],
        deadline=None if data["deadline"] is None else float(data["deadline"]),
        reminded=bool(data["reminded"]),
        log_length=int(data["log_length"]),
        winners=tuple(json.loads(data["winners"])),
        extra=json.loads(data["extra"]),
        created_at=float(data["created_at"]),
        updated_at=float(data["updated_at"]),
    )


_PARAM = re.compile(r"\?")


def numbered(query: str) -> str:
    """Turn ``?`` parameters into PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return _PARAM.sub(lambda _m: f"${next(counter)}", query)


# --- the outbox (bot.model.outbox) -----------------------------------------------------------

INSERT_OUTBOX = (
    "INSERT INTO outbox (table_id, guild_id, kind, key, payload, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING"
)
SELECT_OUTBOX = (
    "SELECT id, table_id, guild_id, kind, key, payload, created_at, attempts FROM outbox "
    "WHERE done = 0 ORDER BY id"
)
#: Take a pending row for ``lease_owner`` until ``lease_until`` unless another process holds
#: it; the try is counted (a later one looks for its message first).
CLAIM_OUTBOX = (
    "UPDATE outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 "
    "WHERE id = ? AND done = 0 AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)"
)
RELEASE_OUTBOX = "UPDATE outbox SET lease_owner = NULL WHERE id = ? AND lease_owner = ?"
DONE_OUTBOX = "UPDATE outbox SET done = 1, message_id = ?, lease_owner = NULL WHERE id = ?"


def intent_values(intent: Intent, now: float) -> list[Any]:
    """The INSERT_OUTBOX parameters of an intent."""
    return [
        intent.table_id,
        intent.guild_id,
        intent.kind,
        intent.key,
        json.dumps(intent.payload, separators=(",", ":")),
        now,
    ]


def outbox_from_row(row: Sequence[Any]) -> OutboxItem:
    """A pending outbox row (SELECT_OUTBOX) as an item."""
    return OutboxItem(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        str(row[3]),
        str(row[4]),
        json.loads(row[5]),
        float(row[6]),
        int(row[7]),
    )


#: The half-time reminder of one turn, taken once: by the one process whose update finds it
#: not yet taken (two processes overlapping on a shard both try).
CLAIM_REMINDER = "UPDATE tables SET reminded = 1 WHERE id = ? AND version = ? AND reminded = 0"
