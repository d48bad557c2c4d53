"""The table service: everything that happens at a table, with no transport in it.

Front ends (Discord, the terminal) call one object, :class:`TableService`
(:mod:`.facade`), which composes these parts, each owning its state and given the parts it
calls through its constructor (none calls up this list, none reaches into another's privates):

- :mod:`.games`: the engine of each game, looked up once.
- :mod:`.store`: the tables in memory, their locks, loading, staging and every commit (then it
  tells its commit hooks: the result of a finished game, the turn clock's schedule).
- :mod:`.results`: the result and ratings of a finished game, stored once; ``/stats``,
  ``/leaderboard``, ``/history``, records and replays.
- :mod:`.announce`: what an action tells whom; secrets kept out of public updates.
- :mod:`.steps`: one action applied, staged and announced; a seat handed to the absent-player
  policy; a table abandoned.
- :mod:`.bot_turns`: bots and left seats played until a person owes a decision.
- :mod:`.lobby`, :mod:`.rematch`: seats, bots, the start, leaving; a finished table's rematch.
- :mod:`.play`: a person's move or exchange pick, and what a seat may see now.
- :mod:`.views`: what a reader may see of a table, read without changing it (its history too).
- :mod:`.hints`: the hard bot's move for a learner.
- :mod:`.turn_clock`: deadlines, reminders and timeouts.
"""

from bot.model.effects import Effects, Listener, PrivateInfo, PrivateUpdate, PublicUpdate
from bot.model.history import HistoryEntry
from bot.model.table import (
    ABSENT_POLICIES,
    BOT_LEVELS,
    TURN_TIMES,
    AlreadySeated,
    BadSeat,
    CannotStart,
    IllegalMoveError,
    InvalidTableOptions,
    NotHost,
    NotSeated,
    NotYourTurn,
    Phase,
    Seat,
    StaleVersion,
    TableError,
    TableFull,
    TableNotFound,
    TableRecord,
    WrongPhase,
)
from bot.service.facade import TableService, open_tables
from bot.service.hints import HintsOff, TableHint
from bot.service.seasons import SeasonBoard, SeasonError
from bot.service.tournaments import OpenedTable, RoundOpened, TournamentError

__all__ = [
    "ABSENT_POLICIES",
    "BOT_LEVELS",
    "TURN_TIMES",
    "AlreadySeated",
    "BadSeat",
    "CannotStart",
    "Effects",
    "HintsOff",
    "HistoryEntry",
    "IllegalMoveError",
    "InvalidTableOptions",
    "Listener",
    "NotHost",
    "NotSeated",
    "NotYourTurn",
    "OpenedTable",
    "Phase",
    "PrivateInfo",
    "PrivateUpdate",
    "PublicUpdate",
    "RoundOpened",
    "SeasonBoard",
    "SeasonError",
    "Seat",
    "StaleVersion",
    "TableError",
    "TableFull",
    "TableHint",
    "TableNotFound",
    "TableRecord",
    "TableService",
    "TournamentError",
    "WrongPhase",
    "open_tables",
]
