"""The values of the table service: tables, seats, log entries and the errors players see.

These are plain data. :mod:`bot.service` changes them, :mod:`bot.storage` keeps them, and the
front ends (Discord, the terminal) read them. Nothing here talks to an engine or a database.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field, replace
from typing import Any

from i18n.catalog import has_key, name_phrase
from i18n.message import Message, msg

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


def game_title(game: str) -> Message | str:
    """A game's name (``Tock``) as a message, said in the reader's language (a game without
    a catalogue name, such as a test's, by its id)."""
    return msg(f"game.{game}") if has_key(f"game.{game}") else game


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
    #: A bot's number as the lobby showed it (``Bot 2`` sat at the second position), kept
    #: when the game renumbers seats.
    bot_number: int | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.bot_level is not None

    @property
    def is_human(self) -> bool:
        """True for a seat a person plays (and has not left)."""
        return self.user_id is not None and not self.left

    @property
    def label(self) -> Message | str:
        """How sentences name the seat: a person's name, ``Bot 2``, ``Ann (bot)`` for a bot
        that took over Ann's seat, ``Player 3`` for a person without a name."""
        if self.is_bot and self.user_id is None:
            if self.former_user_id is not None and self.name:
                # Tables stored before names were keyed kept "Ann (bot)" as the name.
                return msg("table.bot_suffix", name=self.name.removesuffix(" (bot)"))
            number = self.bot_number
            if number is None:  # stored before bots had numbers: "Bot 3 (easy)"
                found = re.match(r"Bot (\d+)", self.name)
                number = int(found[1]) if found else self.index + 1
            return msg("seat.bot", number=number)
        if self.name:
            return name_phrase(self.name)  # a name takes no article, whatever a template asks
        return msg("seat.player", number=self.index + 1)

    def to_json(self) -> dict[str, Any]:
        """The seat as a JSON-able dict (for storage)."""
        return {
            "index": self.index,
            "user_id": self.user_id,
            "name": self.name,
            "bot_level": self.bot_level,
            "left": self.left,
            "former_user_id": self.former_user_id,
            "bot_number": self.bot_number,
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
            bot_number=data.get("bot_number"),
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

    def seat_label(self, seat: int) -> Message | str:
        """How sentences name ``seat`` (see :attr:`Seat.label`)."""
        for s in self.seats:
            if s.index == seat:
                return s.label
        return msg("seat.seat", number=seat + 1)


def bot_level_of(record: TableRecord) -> str:
    """The table's bot level: ``extra["bot_level"]``, or :data:`DEFAULT_BOT_LEVEL` for a
    table opened before tables had one."""
    level = (record.extra or {}).get("bot_level")
    return level if level in BOT_LEVELS else DEFAULT_BOT_LEVEL


# --- errors ----------------------------------------------------------------------------------


class TableError(Exception):
    """A request the service refuses, as a catalogue key and its parameters.

    ``raise NotHost("error.not_host")``; ``error.text(locale)`` says it to the person who asked
    (``error.message`` is the :class:`~i18n.message.Message`), ``str(error)`` says it in
    English for logs. Each subclass has a default key for the usual case.
    """

    default_key = "error.refused"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.message = Message(key or self.default_key, params)
        super().__init__(self.message.key)

    def text(self, locale: object) -> str:
        """The refusal in ``locale``."""
        return self.message.text(locale)

    def __str__(self) -> str:
        return self.message.text("en")


class TableNotFound(TableError):
    """No table has that id (or it is in another guild)."""

    default_key = "error.no_table"


def check_table_id(table_id: int) -> int:
    """``table_id`` if a table could have it (1 to :data:`MAX_ID`), else :class:`TableNotFound`."""
    if not 0 < table_id <= MAX_ID:
        raise TableNotFound(table=table_id)
    return table_id


class WrongPhase(TableError):
    """The table is not in the phase the operation needs (e.g. joining a game in play)."""

    default_key = "error.table_over"


class NotSeated(TableError):
    """The caller has no seat at this table (a spectator acting, leaving, picking, ...)."""

    default_key = "error.not_playing_here"


class AlreadySeated(TableError):
    """The caller already has a seat at this table."""

    default_key = "error.already_seated"


class NotYourTurn(TableError):
    """The caller is seated but owes no decision now."""

    default_key = "error.not_your_turn_now"


class StaleVersion(TableError):
    """The button was for a turn that is already over."""

    default_key = "error.stale"


class NotHost(TableError):
    """Only the host (or a moderator, for abandon) may do this."""

    default_key = "error.not_host"


class TableFull(TableError):
    """No free seat (or the chosen seat is taken)."""

    default_key = "error.table_full"


class BadSeat(TableError):
    """A seat or team number that does not exist at this table."""

    default_key = "error.no_teams"


class InvalidTableOptions(TableError):
    """A table option that is unknown or out of range; the message names it."""

    default_key = "error.options_invalid"


class CannotStart(TableError):
    """The player count or team set-up does not allow starting the game."""

    default_key = "error.needs_person"


class IllegalMoveError(TableError):
    """The engine refused the move (``error.illegal``: the move and, when the engine gave
    one, its reason as a message)."""

    default_key = "error.illegal"


def reserved_seats(record: TableRecord) -> dict[int, int]:
    """The kept seats of a rematch lobby that nobody took yet: position -> user id."""
    kept = record.extra.get("reserved") or {}
    taken = {s.index for s in record.seats if s.user_id is not None or s.is_bot}
    return {int(p): int(u) for p, u in kept.items() if int(p) not in taken}
