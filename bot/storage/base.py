"""The storage interface every back end implements (SQLite now, PostgreSQL beside it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.model.outbox import BoardLease, Intent, OutboxItem
from bot.model.table import LogEntry, TableRecord

if TYPE_CHECKING:
    from bot.after_game.game_result import GameResult
    from bot.after_game.ratings import Rating
    from bot.tournament.record import TournamentRecord
    from bot.tournament.season import Season

    #: Computes a result's new ratings from the stored ones, inside the transaction that
    #: stores the result (so two results never rate from the same ratings).
    RateFunction = Callable[[Mapping[str, Rating]], Mapping[str, Rating]]


class Storage(Protocol):
    """Durable tables and their append-only move logs.

    Writes are atomic. :meth:`commit` is the only way a game advances: it appends log entries
    and rewrites the table row in one transaction, but only if the stored version is still
    ``expected_version`` (``UPDATE ... WHERE version = expected``), so two processes can never
    both apply an action to one turn. A commit that returned True is durable: a crash after it
    loses nothing.

    ``single_writer`` is True when this process is the only one writing the database (an
    SQLite file by default); the service then trusts its in-memory copy of a table without
    asking the database for its version first. Writes stay guarded by the version check
    either way.
    """

    single_writer: bool

    async def open(self) -> None:
        """Connect and apply pending schema migrations."""
        ...

    async def close(self) -> None:
        """Close the connection(s)."""
        ...

    async def create_table(self, record: TableRecord) -> int:
        """Insert a new table (its ``id`` is ignored) and return the id it was given."""
        ...

    async def commit(
        self,
        record: TableRecord,
        expected_version: int,
        entries: Sequence[LogEntry] = (),
    ) -> bool:
        """Store ``record`` and append ``entries`` if the stored version is ``expected_version``.

        Returns False (and changes nothing) when another writer got there first.
        """
        ...

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the thread a front end opened for the table (no version change)."""
        ...

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table row, or None."""
        ...

    async def load_version(self, table_id: int) -> int | None:
        """Just the stored version (cheap check that an in-memory copy is current)."""
        ...

    async def load_log(self, table_id: int, start: int = 0) -> list[LogEntry]:
        """The log entries from index ``start`` on, in order."""
        ...

    async def list_tables(
        self, guild_id: int, channel_id: int | None = None, active: bool = True
    ) -> list[TableRecord]:
        """Tables of a guild (optionally one channel), only lobby/playing ones if ``active``."""
        ...

    async def tables_with_deadline(self) -> list[TableRecord]:
        """Every table in play whose turn clock is running (for re-arming at start-up)."""
        ...

    async def set_board(self, table_id: int, version: int, message_id: int | None) -> None:
        """Record that the table's thread received its board for ``version`` as ``message_id``
        (no version change; an older ``version`` than the one recorded is ignored)."""
        ...

    async def load_board(self, table_id: int) -> tuple[int, int | None] | None:
        """The version of the newest board delivered and its message id, or None (no table)."""
        ...

    async def tables_without_board(self) -> list[TableRecord]:
        """Every table in play or finished, with a thread, whose newest board was never
        delivered (its version is ahead of the recorded board's)."""
        ...

    async def save_snapshot(self, table_id: int, log_length: int, position: Any) -> None:
        """Keep ``position`` (JSON-able) as the state after the first ``log_length`` entries."""
        ...

    async def load_snapshot(self, table_id: int) -> tuple[int, Any] | None:
        """The latest snapshot as ``(log_length, position)``, or None."""
        ...

    # --- results and ratings (bot.storage.results_rows) -------------------------------------

    async def save_result(
        self,
        result: GameResult,
        rate: RateFunction | None = None,
        intents: Sequence[Intent] = (),
    ) -> bool:
        """Store a finished table's result and, with ``rate``, its players' new ratings, and
        the posts it owes (``intents``, the outbox) in one transaction that also orders
        concurrent results of the same guild and game. False (and nothing changed) when the
        table already has a result."""
        ...

    async def load_result(self, table_id: int) -> GameResult | None:
        """The result of a table, or None."""
        ...

    async def rating_changes(self, table_id: int) -> dict[str, tuple[float, float]]:
        """How a table's result moved each rated player's ``mu``: player -> (before, after)."""
        ...

    async def history(
        self,
        guild_id: int,
        *,
        player: str | None = None,
        game: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameResult]:
        """Results of a guild (or of one player there, ``u:<id>`` / ``bot:<level>``),
        newest first."""
        ...

    async def all_results(self, guild_id: int | None = None) -> list[GameResult]:
        """Every result (of one guild), in the order they were stored."""
        ...

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[Rating]:
        """The best ratings of a game on a guild (by ``mu - 3 sigma``)."""
        ...

    async def rating(self, guild_id: int, game: str, player: str) -> tuple[int, Rating] | None:
        """A player's place on the leaderboard and rating, or None if unrated."""
        ...

    async def ratings_of(self, guild_id: int, player: str) -> dict[str, Rating]:
        """A player's rating in every game they played on a guild."""
        ...

    async def replace_ratings(
        self, ratings: Mapping[tuple[int, str], Mapping[str, Rating]], guild_id: int | None
    ) -> None:
        """Put ``ratings`` in place of every stored rating (of one guild), atomically."""
        ...

    async def unposted_results(self) -> list[int]:
        """Tables whose results post has not reached Discord yet, oldest first."""
        ...

    async def mark_posted(self, table_id: int) -> None:
        """Note that the table's results post reached Discord."""
        ...

    async def finished_without_result(self) -> list[int]:
        """Finished tables whose result is not stored yet."""
        ...

    # --- tournaments (#32; bot.storage.sqlite_tournaments, bot.storage.postgres_tournaments) ---

    async def create_tournament(self, record: TournamentRecord) -> int:
        """Insert a tournament and return its id."""
        ...

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament, or None."""
        ...

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> bool:
        """Store ``record`` if the stored version is still ``expected_version``."""
        ...

    async def list_tournaments(
        self, guild_id: int | None = None, active: bool = True
    ) -> list[TournamentRecord]:
        """Tournaments of a guild (or every guild), oldest first."""
        ...

    async def create_tournament_table(
        self, record: TableRecord, tournament_id: int, round_number: int, slot: int
    ) -> tuple[int, bool]:
        """The table of a tournament's round and slot, inserted with its link in one
        transaction, or the one already linked: (table id, created)."""
        ...

    async def tournament_tables(self, tournament_id: int) -> dict[tuple[int, int], int]:
        """The tables a tournament opened: (round, slot) -> table id."""
        ...

    async def create_season(self, season: Season) -> int:
        """Insert a season and return its id."""
        ...

    async def list_seasons(self, guild_id: int, game: str | None = None) -> list[Season]:
        """A guild's seasons (of one game), oldest first."""
        ...

    # --- the outbox (bot.model.outbox) and the reminder claim -------------------------------

    async def add_intents(self, intents: Sequence[Intent]) -> None:
        """Store posts owed (one per key, ever: a second intent with a stored key is ignored)."""
        ...

    async def pending_posts(self) -> list[OutboxItem]:
        """Every post not marked done, oldest first."""
        ...

    async def claim_post(self, item_id: int, owner: str, now: float, until: float) -> bool:
        """Take a pending post for ``owner`` until the time ``until`` and count the try; False
        when it is done or another owner's lease still runs at ``now``."""
        ...

    async def post_done(self, item_id: int, message_id: int | None) -> None:
        """Mark a post done: Discord took it as ``message_id`` (None: it never will)."""
        ...

    async def release_post(self, item_id: int, owner: str) -> None:
        """Give up ``owner``'s lease of a post that did not go out (any process may try)."""
        ...

    async def claim_board_post(self, table_id: int, owner: str, now: float, until: float) -> bool:
        """Take (or renew) the posting of a table's boards for ``owner`` until the time
        ``until``; False while another owner's lease still runs at ``now``."""
        ...

    async def replacing_board(self, table_id: int, owner: str, message_id: int | None) -> None:
        """Note the digest message that ``owner``'s post under way replaces."""
        ...

    async def release_board_post(self, table_id: int, owner: str) -> None:
        """``owner`` finished posting the table's board (the replaced digest is forgotten)."""
        ...

    async def board_post(self, table_id: int) -> BoardLease | None:
        """Who posts the table's boards until when, and the digest being replaced (None:
        no such table)."""
        ...

    async def claim_reminder(self, table_id: int, version: int) -> bool:
        """Set the table's ``reminded`` if it is at ``version`` and not reminded yet (no
        version change); False when another process reminded it first or it moved on."""
        ...
