"""Versioned schema migrations, written once for both back ends.

Each migration is a list of statements in portable SQL with placeholders that each back end
fills in (:func:`render`): ``{pk}`` for an auto-increment primary key, ``{big}`` for a 64-bit
integer (Discord ids), ``{real}`` for a double, ``{without_rowid}`` for a table stored as its
primary key's B-tree (SQLite's ``WITHOUT ROWID``; PostgreSQL has no such table). A statement
that no placeholder can make portable is a mapping from the dialect's name to its SQL.
``schema_version`` records which migrations ran; a back end applies the missing ones in order
at start-up, in one transaction each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dialect:
    """How a back end spells the placeholders of :data:`MIGRATIONS`."""

    name: str
    pk: str
    big: str
    real: str
    without_rowid: str


SQLITE = Dialect(
    name="sqlite",
    pk="INTEGER PRIMARY KEY AUTOINCREMENT",
    big="INTEGER",
    real="REAL",
    without_rowid="WITHOUT ROWID",
)
POSTGRES = Dialect(
    name="postgres",
    pk="BIGSERIAL PRIMARY KEY",
    big="BIGINT",
    real="DOUBLE PRECISION",
    without_rowid="",
)

#: A statement: portable SQL with placeholders, or SQL per dialect name.
Statement = str | Mapping[str, str]

#: One log entry of the old ``moves`` table as a line of the compact log
#: (bot.storage.log_rows: ``<kind><seat>,<version - idx>,<escaped text>\n``).
_OLD_MOVE_AS_LINE = """(CASE kind WHEN 'move' THEN 'm' WHEN 'auto' THEN 'a'
        WHEN 'leave' THEN 'l' ELSE 'b' END)
    || COALESCE(CAST(seat AS TEXT), '') || ',' || CAST(version - idx AS TEXT) || ','
    || REPLACE(REPLACE(text, '\\', '\\\\'), {newline}, '\\n') || {newline}"""

#: (version, statements). Never edit a released migration: add a new one.
MIGRATIONS: tuple[tuple[int, tuple[Statement, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE tables (
                id {pk},
                guild_id {big} NOT NULL,
                channel_id {big} NOT NULL,
                thread_id {big},
                game TEXT NOT NULL,
                options TEXT NOT NULL,
                seed {big} NOT NULL,
                host_id {big} NOT NULL,
                seats TEXT NOT NULL,
                players INTEGER NOT NULL,
                phase TEXT NOT NULL,
                version INTEGER NOT NULL,
                turn_time INTEGER NOT NULL,
                absent_policy TEXT NOT NULL,
                deadline {real},
                reminded INTEGER NOT NULL,
                log_length INTEGER NOT NULL,
                winners TEXT NOT NULL,
                extra TEXT NOT NULL,
                created_at {real} NOT NULL,
                updated_at {real} NOT NULL
            )""",
            "CREATE INDEX tables_by_place ON tables (guild_id, channel_id, phase)",
            "CREATE INDEX tables_by_deadline ON tables (deadline)",
            """CREATE TABLE moves (
                table_id {big} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                idx INTEGER NOT NULL,
                kind TEXT NOT NULL,
                seat INTEGER,
                text TEXT NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (table_id, idx)
            )""",
            """CREATE TABLE snapshots (
                table_id {big} PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
                log_length INTEGER NOT NULL,
                position TEXT NOT NULL
            )""",
        ),
    ),
    (
        2,
        (
            # Which version of the table its thread last received as a board, and that
            # board's message: a board that could not be posted (an outage, a crash between
            # the commit and the post) is posted later by whichever process owns the table.
            "ALTER TABLE tables ADD COLUMN board_version INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN board_message_id {big}",
            # Tables stored before this migration are taken as delivered: re-posting every
            # board of a large deployment at the first start would flood Discord.
            "UPDATE tables SET board_version = version",
        ),
    ),
    (
        3,
        (
            # One row per finished table; ``summary`` is the JSON of a GameResult
            # (bot.after_game.game_result).
            # ``id`` orders the results: ratings are replayed in that order. ``posted`` is set
            # once the results post reached Discord (until then it is tried again).
            """CREATE TABLE results (
                id {pk},
                table_id {big} NOT NULL UNIQUE REFERENCES tables (id) ON DELETE CASCADE,
                guild_id {big} NOT NULL,
                game TEXT NOT NULL,
                finished_at {real} NOT NULL,
                rated INTEGER NOT NULL,
                summary TEXT NOT NULL,
                posted INTEGER NOT NULL DEFAULT 0
            )""",
            "CREATE INDEX results_by_guild ON results (guild_id, id)",
            "CREATE INDEX results_by_guild_game ON results (guild_id, game, id)",
            # Who played which result, for a member's /history and /stats, and how the
            # result moved their rating (``mu`` before and after; NULL when not rated).
            """CREATE TABLE result_players (
                result_id {big} NOT NULL REFERENCES results (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                guild_id {big} NOT NULL,
                game TEXT NOT NULL,
                player TEXT NOT NULL,
                place INTEGER NOT NULL,
                mu_before {real},
                mu_after {real},
                PRIMARY KEY (result_id, seat)
            )""",
            "CREATE INDEX result_players_by_player ON result_players (guild_id, player, result_id)",
            """CREATE INDEX result_players_by_player_game
                ON result_players (guild_id, player, game, result_id)""",
            """CREATE TABLE ratings (
                guild_id {big} NOT NULL,
                game TEXT NOT NULL,
                player TEXT NOT NULL,
                mu {real} NOT NULL,
                sigma {real} NOT NULL,
                ordinal {real} NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                PRIMARY KEY (guild_id, game, player)
            )""",
            "CREATE INDEX ratings_by_ordinal ON ratings (guild_id, game, ordinal)",
        ),
    ),
    (
        4,
        (
            # #32 tournaments: one row per tournament, its pure state as JSON
            # (bot.tournament.model.Tournament); ``version`` guards every write, so a round is
            # recorded once however many processes (or restarts) try.
            """CREATE TABLE tournaments (
                id {pk},
                guild_id {big} NOT NULL,
                channel_id {big} NOT NULL,
                host_id {big} NOT NULL,
                game TEXT NOT NULL,
                phase TEXT NOT NULL,
                version INTEGER NOT NULL,
                setup TEXT NOT NULL,
                state TEXT NOT NULL,
                created_at {real} NOT NULL,
                updated_at {real} NOT NULL
            )""",
            "CREATE INDEX tournaments_by_guild ON tournaments (guild_id, phase)",
            # The table of each round's slot, inserted in the same transaction as the table:
            # a slot never gets a second table.
            """CREATE TABLE tournament_tables (
                tournament_id {big} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                round INTEGER NOT NULL,
                slot INTEGER NOT NULL,
                table_id {big} NOT NULL UNIQUE REFERENCES tables (id) ON DELETE CASCADE,
                PRIMARY KEY (tournament_id, round, slot)
            )""",
            # Seasons of a game on a guild (bot.tournament.season): their leaderboard is
            # computed from the results finished between start_at and end_at.
            """CREATE TABLE seasons (
                id {pk},
                guild_id {big} NOT NULL,
                game TEXT NOT NULL,
                name TEXT NOT NULL,
                start_at {real} NOT NULL,
                end_at {real} NOT NULL
            )""",
            "CREATE INDEX seasons_by_guild ON seasons (guild_id, game, start_at)",
        ),
    ),
    (
        5,
        (
            # The outbox (issue 29): what the bot is to post about a table, stored in the
            # transaction of the change that causes it, marked ``done`` only once Discord took
            # the message. ``key`` names the post (one row per post, ever); ``payload`` is the
            # JSON the front end needs to make it. ``attempts`` counts the tries that may have
            # reached Discord (a re-send then first looks for the message in the channel);
            # ``lease_owner`` / ``lease_until`` let one process at a time send a row.
            """CREATE TABLE outbox (
                id {pk},
                table_id {big} NOT NULL,
                guild_id {big} NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL UNIQUE,
                payload TEXT NOT NULL,
                created_at {real} NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                lease_owner TEXT,
                lease_until {real},
                done INTEGER NOT NULL DEFAULT 0,
                message_id {big}
            )""",
            "CREATE INDEX outbox_pending ON outbox (done, id)",
            # Results not posted yet when this migration runs go out through the outbox.
            """INSERT INTO outbox (table_id, guild_id, kind, key, payload, created_at)
                SELECT table_id, guild_id, 'results', 'results:' || table_id, '{{}}',
                    finished_at
                FROM results WHERE posted = 0""",
            """INSERT INTO outbox (table_id, guild_id, kind, key, payload, created_at)
                SELECT table_id, guild_id, 'notice', 'notice:' || table_id, '{{}}',
                    finished_at
                FROM results WHERE posted = 0""",
            "UPDATE results SET posted = 1",
        ),
    ),
    (
        6,
        (
            # Issue #37: the compact move log (bot.storage.log_rows), 32 entries a row keyed
            # by (table, chunk) only; the one-row-per-entry ``moves`` is converted and dropped.
            """CREATE TABLE move_chunks (
                table_id {big} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
                chunk INTEGER NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (table_id, chunk)
            ) {without_rowid}""",
            {
                # SQLite before 3.44 has no ORDER BY inside group_concat: it concatenates in
                # the order of the ordered sub-query.
                "sqlite": "INSERT INTO move_chunks (table_id, chunk, data) "
                "SELECT table_id, idx / 32, group_concat(line, '') FROM ("
                "SELECT table_id, idx, "
                + _OLD_MOVE_AS_LINE.format(newline="char(10)")
                + " AS line FROM moves ORDER BY table_id, idx) GROUP BY table_id, idx / 32",
                "postgres": "INSERT INTO move_chunks (table_id, chunk, data) "
                "SELECT table_id, idx / 32, string_agg("
                + _OLD_MOVE_AS_LINE.format(newline="chr(10)")
                + ", '' ORDER BY idx) FROM moves GROUP BY table_id, idx / 32",
            },
            "DROP TABLE moves",
        ),
    ),
    (
        7,
        (
            # Issue #29, boards and digests: the intent to post a table's board is the row's
            # ``version`` ahead of ``board_version`` (written in the change's transaction);
            # these columns lease the posting of its boards to one process at a time (two
            # processes overlap on a shard during a rolling restart), and name the digest
            # that a re-post at the bottom replaces (deleted by whoever finishes the post).
            "ALTER TABLE tables ADD COLUMN post_owner TEXT",
            "ALTER TABLE tables ADD COLUMN post_until {real}",
            "ALTER TABLE tables ADD COLUMN post_replaces {big}",
        ),
    ),
)

SCHEMA_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"


def render(statement: Statement, dialect: Dialect) -> str:
    """Fill a migration statement's placeholders for ``dialect`` (or pick its SQL)."""
    if not isinstance(statement, str):
        return statement[dialect.name]
    return statement.format(
        pk=dialect.pk, big=dialect.big, real=dialect.real, without_rowid=dialect.without_rowid
    )


def pending(applied: int) -> list[tuple[int, tuple[Statement, ...]]]:
    """The migrations after version ``applied``, in order."""
    return [(version, stmts) for version, stmts in MIGRATIONS if version > applied]
