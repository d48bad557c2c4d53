"""The values of the table service: tables, seats, log entries and the errors players see.

These are plain data. :mod:`bot.tables` changes them, :mod:`bot.storage` keeps them, and the
front ends (Discord, the terminal) read them. Nothing here talks to an engine or a database.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from i18n.catalog import has_key, t

#: The absent-player policies: ``auto`` lets the engine take the left seat's decisions
#: (C-13), ``bot`` hands the seat to a bot of the table's level (:func:`bot_level_of`).
ABSENT_POLICIES: tuple[str, ...] = ("auto", "bot")
#: The bot levels ``engine.bots.choose_move`` accepts.
BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: The bot level of a table that was not given one: the level of the lobby's "Add bot" and of
#: the bot that takes over a seat under the ``bot`` absent policy.
DEFAULT_BOT_LEVEL = "normal"
#: The largest id either back end stores: SQLite's INTEGER and PostgreSQL's BIGINT are signed
#: 64-bit. A larger number (a crafted custom_id, a typed option) names no table; it must be
#: refused before it reaches a database driver, which would raise instead.
MAX_ID = 2**63 - 1
#: Allowed turn times in seconds; 0 means no turn clock.
TURN_TIMES: tuple[int, ...] = (0, 60, 120, 180, 300, 600, 900, 1800, 3600, 86400)


def game_title(game: str) -> str:
    """A game's name in the service's English sentences (``Tock``); its id if it has none.

    The Discord layer reads such a name back to its catalogue key and says it in the
    reader's language.
    """
    key = f"game.{game}"
    return t(key, "en") if has_key(key) else game


class Phase(enum.StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class LogKind(enum.StrEnum):
    """The kinds of entries in a game's append-only log."""

    MOVE = "move"  # a move text chosen by a person or a bot
    AUTO = "auto"  # the engine's automatic action for a seat (timeout or left seat)
    LEAVE = "leave"  # the seat was marked left in the engine (absent policy ``auto``)
    BOT = "bot"  # the seat was handed to a bot; the engine state does not change


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table: a person (``user_id``) or a bot (``bot_level``).

    ``left`` is True once a person left a game in play under the ``auto`` policy; the engine
    then takes that seat's decisions. ``former_user_id`` remembers who sat there before a bot
    or the engine took over, so the front end can still name them.
    """

    index: int
    user_id: int | None = None
    name: str = ""
    bot_level: str | None = None
    left: bool = False
    former_user_id: int | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.bot_level is not None

    @property
    def is_human(self) -> bool:
        """True for a seat a person plays (and has not left)."""
        return self.user_id is not None and not self.left

    def to_json(self) -> dict[str, Any]:
        """The seat as a JSON-able dict (for storage)."""
        return {
            "index": self.index,
            "user_id": self.user_id,
            "name": self.name,
            "bot_level": self.bot_level,
            "left": self.left,
            "former_user_id": self.former_user_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """Rebuild a seat from :meth:`to_json`."""
        return cls(
            index=int(data["index"]),
            user_id=data.get("user_id"),
            name=str(data.get("name", "")),
            bot_level=data.get("bot_level"),
            left=bool(data.get("left", False)),
            former_user_id=data.get("former_user_id"),
        )


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a game's append-only log.

    ``index`` is 0-based; the table's ``version`` after applying entries 0..i is i+1 plus
    the number of lobby changes (see :class:`TableRecord`). ``text`` is the canonical move
    text for ``move`` and ``auto`` entries (for ``auto`` it is informative: replay calls
    ``auto_action`` again, which is deterministic), empty otherwise.
    """

    index: int
    kind: LogKind
    seat: int | None
    text: str = ""
    version: int = 0  # the table version this entry produced

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON-able dict."""
        return {
            "index": self.index,
            "kind": str(self.kind),
            "seat": self.seat,
            "text": self.text,
            "version": self.version,
        }


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Everything stored about a table except its move log.

    ``version`` increases by one on every change of the table (a lobby change or an applied
    action); buttons carry it and the storage refuses a write whose expected version is not
    current, so two processes can never both apply an action to the same turn.
    ``deadline`` (seconds since the epoch, by the service's clock) is when the seats that owe
    a decision get their automatic action; ``reminded`` says the half-time reminder went out.
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    host_id: int
    seats: tuple[Seat, ...]
    phase: Phase = Phase.LOBBY
    version: int = 0
    thread_id: int | None = None
    players: int = 4
    turn_time: int = 0
    absent_policy: str = "auto"
    deadline: float | None = None
    reminded: bool = False
    log_length: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    winners: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def with_changes(self, **changes: Any) -> TableRecord:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    @property
    def bot_level(self) -> str:
        """The table's bot level (chosen by the host at creation; see :func:`bot_level_of`)."""
        return bot_level_of(self)

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` plays at this table, if any."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def hints(self) -> bool:
        """True for a table opened with hints on (learners may ask the bot; never rated)."""
        return bool(self.extra.get("hints"))

    @property
    def active(self) -> bool:
        """True while the table is in its lobby or being played."""
        return self.phase in (Phase.LOBBY, Phase.PLAYING)


def bot_level_of(record: TableRecord) -> str:
    """The table's bot level: ``extra["bot_level"]``, or :data:`DEFAULT_BOT_LEVEL` for a
    table opened before tables had one."""
    level = (record.extra or {}).get("bot_level")
    return level if level in BOT_LEVELS else DEFAULT_BOT_LEVEL


# --- errors ----------------------------------------------------------------------------------


class TableError(Exception):
    """A request the service refuses; ``str(error)`` is a sentence for the person who asked."""


class TableNotFound(TableError):
    """No table has that id (or it is in another guild)."""


def check_table_id(table_id: int) -> int:
    """``table_id`` if a table could have it (1 to :data:`MAX_ID`), else :class:`TableNotFound`."""
    if not 0 < table_id <= MAX_ID:
        raise TableNotFound(f"There is no table {table_id}.")
    return table_id


class WrongPhase(TableError):
    """The table is not in the phase the operation needs (e.g. joining a game in play)."""


class NotSeated(TableError):
    """The caller has no seat at this table (a spectator acting, leaving, picking, ...)."""


class AlreadySeated(TableError):
    """The caller already has a seat at this table."""


class NotYourTurn(TableError):
    """The caller is seated but owes no decision now."""


class StaleVersion(TableError):
    """The button was for a turn that is already over."""

    def __init__(self, message: str = "That turn is over.") -> None:
        super().__init__(message)


class NotHost(TableError):
    """Only the host (or a moderator, for abandon) may do this."""


class TableFull(TableError):
    """No free seat (or the chosen seat is taken)."""


class BadSeat(TableError):
    """A seat or team number that does not exist at this table."""


class InvalidTableOptions(TableError):
    """A table option that is unknown or out of range; the message names it."""


class CannotStart(TableError):
    """The player count or team set-up does not allow starting the game."""


class IllegalMoveError(TableError):
    """The engine refused the move; the message is the engine's reason."""
