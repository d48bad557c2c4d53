"""The live board (#33): what one reader of a table's live page may receive, its moves as
click paths, and who is told when a table changes.

The secrets of the live page are decided here, as for every other path: a spectator's state is
made of the engine's spectator view and the spectator's history only (never a hand, a pick or
the draw order); a seated player's adds their own hand and legal options, read through
:class:`~bot.service.play.Play` exactly as the Discord prompts read them. The protocol is in
``docs/live.md``.

Changes: the store tells this part after every commit (:meth:`LiveFeed.committed`), and
:meth:`LiveFeed.changed` hands the table and version to the listeners a front end registered;
another process's commits arrive the same way through the storage's change feed (PostgreSQL
``LISTEN/NOTIFY``), see :meth:`bot.service.TableService.start`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.model.effects import Effects, PrivateInfo
from bot.model.history import HistoryEntry, HistoryKind
from bot.model.table import (
    IllegalMoveError,
    LogEntry,
    NotSeated,
    NotYourTurn,
    Phase,
    StaleVersion,
    TableError,
    TableNotFound,
    TableRecord,
)
from bot.model.turn_words import seat_words, turn_status
from bot.service.play import Play
from bot.service.results import Results
from bot.service.store import TableStore
from bot.service.views import Views
from i18n import t
from i18n.events import card_as
from i18n.history import history_line
from i18n.message import say
from renderer.cards import card_words as card_face
from renderer.style import seat_colour, seat_letter

log = logging.getLogger(__name__)

#: A listener of table changes: ``(table_id, version)``, called in the committing task.
ChangeListener = Callable[[int, int], None]
#: The most moves the ``since`` list of a state tells.
SINCE_LIMIT = 12
#: The option of ``TableRecord.extra`` by which a host lets anyone watch the live page.
WATCH_OPTION = "live_watch"

_PLAY = re.compile(r"(?P<card>X=(?P<declared>[0-9AJQK]+)|[0-9AJQKX]+):(?P<action>.+)")
_WALK = re.compile(r"(?P<a>[rh][0-9.]+)-(?P<b>[rh][0-9.]+)")


class ForgedPath(IllegalMoveError):
    """A path that is none of the reader's options now."""

    default_key = "live.refused.path"


class NoReplayYet(TableError):
    """The replay is asked for while the game is still played."""

    default_key = "live.refused.replay"


def may_watch_openly(record: TableRecord) -> bool:
    """Whether the host lets anyone watch the table's live page without signing in."""
    return bool((record.extra or {}).get(WATCH_OPTION))


def hex_colour(seat: int, game: str) -> str:
    """A seat's colour as the renderer draws it, as ``#rrggbb``."""
    red, green, blue = seat_colour(seat, game)[:3]
    return f"#{red:02x}{green:02x}{blue:02x}"


# --- options as click paths ---------------------------------------------------------------------


def race_path(move: str, seat: int) -> list[str]:
    """The click path of a race move (docs/live.md, target ids); the joker's kind as
    ``as:<rank>`` (dropped later where it does not matter)."""
    if move == "F":
        return ["act:fold"]
    if move.startswith("G:"):
        return [f"give:{move[2:]}"]
    walk = _WALK.fullmatch(move)
    if walk is not None:  # a segment of a pending 7
        return [f"pawn:{walk['a']}", f"field:{walk['b']}"]
    match = _PLAY.fullmatch(move)
    if match is None:
        return [f"move:{move}"]
    head = ["card:X", f"as:{match['declared']}"] if match["declared"] else [f"card:{match['card']}"]
    action = match["action"]
    if action == "D":
        return [*head, "act:discard"]
    if action == "N":
        return [*head, "act:nothing"]
    if action.startswith("E"):
        return [*head, f"pawn:k{action[1:] or seat}"]
    if "<>" in action:
        first, second = action.split("<>")
        return [*head, f"pawn:{first}", f"pawn:{second}"]
    path = list(head)
    for part in action.split(","):
        start, _, end = part.partition("-")
        path += [f"pawn:{start}", f"field:{end}"]
    return path


def tile_path(move: str) -> list[str]:
    """The click path of a Carcassonne placement or figure action."""
    if "@" in move:
        cell, _, rot = move.partition("@")
        return [f"cell:{cell}", f"turn:{rot}"]
    if move == "none":
        return ["figure:none"]
    kind, _, segment = move.partition(":")
    return [f"figure:{segment}", f"kind:{kind}"]


def _drop_unneeded(paths: list[list[str]], prefix: str) -> list[list[str]]:
    """A step starting with ``prefix`` (the joker's ``as:``, a figure's ``kind:``) comes last,
    and only where the other clicks leave a choice: a choice with one option is never asked."""
    stripped = [[step for step in path if not step.startswith(prefix)] for path in paths]
    counts: dict[tuple[str, ...], int] = {}
    for path in stripped:
        counts[tuple(path)] = counts.get(tuple(path), 0) + 1
    result = []
    for path, rest in zip(paths, stripped, strict=True):
        chosen = [step for step in path if step.startswith(prefix)]
        result.append(rest + chosen if counts[tuple(rest)] > 1 else rest)
    return result


def split_walks(path: Sequence[str]) -> tuple[str, frozenset[tuple[str, str]]] | None:
    """A split 7's click path as (its card steps, its set of pawn-field walks), or None for
    any other path: two split paths with equal parts are the same split clicked in another
    order."""
    steps = list(path)
    head = 1
    if len(steps) > 1 and steps[0] == "card:X" and steps[1].startswith("as:"):
        head = 2
    walks = steps[head:]
    if not steps or not steps[0].startswith("card:") or len(walks) < 4 or len(walks) % 2:
        return None
    pairs = list(zip(walks[::2], walks[1::2], strict=True))
    if not all(a.startswith("pawn:") and b.startswith("field:") for a, b in pairs):
        return None
    if len({a for a, _ in pairs}) != len(pairs):
        return None  # a pawn walks once in a split (C-8.8)
    return " ".join(steps[:head]), frozenset(pairs)


def option_index(paths: Sequence[Sequence[str]], wanted: Sequence[str]) -> int | None:
    """The option ``wanted`` clicks: its own path, or a split 7 whose pawns were clicked in
    another order than the option lists them (the server lists each split once; the page,
    or any other client, may take the pawns in any order). None: no option."""
    wanted = list(wanted)
    for index, path in enumerate(paths):
        if list(path) == wanted:
            return index
    split = split_walks(wanted)
    if split is None:
        return None
    same = [index for index, path in enumerate(paths) if split_walks(path) == split]
    return same[0] if len(same) == 1 else None


def option_paths(game: str, moves: Sequence[str], seat: int) -> list[list[str]]:
    """The click path of each legal move, in order; every path different."""
    if game == "carcassonne":
        paths = _drop_unneeded([tile_path(m) for m in moves], "kind:")
    else:
        paths = _drop_unneeded([race_path(m, seat) for m in moves], "as:")
    seen: dict[tuple[str, ...], int] = {}
    for path in paths:
        seen[tuple(path)] = seen.get(tuple(path), 0) + 1
    counts: dict[tuple[str, ...], int] = {}
    result = []
    for path in paths:
        key = tuple(path)
        if seen[key] > 1:  # the last resort: the options are told apart by their words
            counts[key] = counts.get(key, 0) + 1
            path = [*path, f"choice:{counts[key]}"]
        result.append(path)
    return result


def target_words(target: str, game: str, locale: str) -> str | None:
    """Words for a target the board does not draw (a button's label), else None."""
    kind, _, value = target.partition(":")
    if kind in ("card", "give"):
        return card_face(value, locale)
    if kind == "as":
        return card_as(value).text(locale)
    if kind == "act":
        return t(f"live.act.{value}", locale)
    if kind == "turn":
        return t(f"tile.turned.{value}", locale)
    if kind == "kind":
        return t(f"figure.{value}", locale)
    if target == "figure:none":
        return t("tile.no_figure", locale)
    if kind == "choice":
        return t("live.choice", locale, number=value)
    return None


# --- the feed -----------------------------------------------------------------------------------


class Changes:
    """The store's commit hook for the live board: tells the listeners a front end registered
    which table is at which version now (made before the store, which it is given to)."""

    def __init__(self) -> None:
        self._listeners: list[ChangeListener] = []

    def listen(self, listener: ChangeListener) -> Callable[[], None]:
        """Call ``listener(table_id, version)`` after each change of any table (this
        process's commits and, over PostgreSQL, every other process's); returns the undo."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    async def committed(self, record: TableRecord, entries: Sequence[LogEntry]) -> None:
        """Tell the listeners (they only take note: the table's lock is held)."""
        self.changed(record.id, record.version)

    def changed(self, table_id: int, version: int) -> None:
        """``table_id`` is at ``version`` now (here or in another process)."""
        for listener in tuple(self._listeners):
            try:
                listener(table_id, version)
            except Exception:  # a front end's bug must not undo a commit's aftermath
                log.exception("a live listener failed for table %s", table_id)


class LiveFeed:
    """Reader states, moves by path and replays of the live board, and its change feed."""

    def __init__(
        self, store: TableStore, play: Play, views: Views, results: Results, changes: Changes
    ) -> None:
        self._store = store
        self._play = play
        self._views = views
        self._results = results
        self.changes = changes

    def listen(self, listener: ChangeListener) -> Callable[[], None]:
        """See :meth:`Changes.listen`."""
        return self.changes.listen(listener)

    # --- who reads --------------------------------------------------------------------------

    async def reader_seat(self, table_id: int, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays at the table (None: a spectator)."""
        if user_id is None:
            return None
        seat = (await self._store.get(table_id)).seat_of(user_id)
        return None if seat is None else seat.index

    async def may_watch(self, table_id: int, user_id: int | None, member: bool) -> TableRecord:
        """The table, if this reader may watch it: a seated person always; a signed-in member
        of the table's server; anyone when the host allowed it. Otherwise the table does not
        exist for them (:class:`TableNotFound`, the same words as a missing one)."""
        record = await self._store.get(table_id)
        seated = user_id is not None and record.seat_of(user_id) is not None
        if seated or member or may_watch_openly(record):
            return record
        raise TableNotFound(table=table_id)

    # --- states -----------------------------------------------------------------------------

    async def reader_state(self, table_id: int, user_id: int | None, locale: str) -> dict[str, Any]:
        """The ``state`` message for one reader (``user_id`` None: a spectator), in ``locale``.

        A seated person's carries ``you`` (their hand and options); a spectator's never does.
        """
        for _attempt in range(3):
            record, view = await self._views.current_board(table_id)
            info: PrivateInfo | None = None
            if user_id is not None and record.seat_of(user_id) is not None:
                info = await self._play.private_info(table_id, user_id)
                if info.table.version != record.version:
                    continue  # moved between the two reads: read both again
            reader = None if info is None else user_id
            _, history = await self._views.history(table_id, reader, last=4 * SINCE_LIMIT)
            return self._state(record, view, info, history, locale)
        raise StaleVersion()

    def _state(
        self,
        record: TableRecord,
        view: Mapping[str, Any] | None,
        info: PrivateInfo | None,
        history: Sequence[HistoryEntry],
        locale: str,
    ) -> dict[str, Any]:
        since = self._since(record, history, None if info is None else info.seat, locale)
        public: dict[str, Any] | None = None
        if view is not None:
            public = dict(view)
            moves = [item["events"] for item in since if item["events"]]
            if len(moves) > 1:
                public["recent"] = moves  # numbered arrows, as a turn digest's board
        to_act = [int(s) for s in (view or {}).get("to_act") or []]
        return {
            "type": "state",
            "table": record.id,
            "game": record.game,
            "version": record.version,
            "locale": locale,
            "phase": str(record.phase),
            "public": public,
            "seats": self._seats(record, view, locale),
            "since": since,
            "status": self.status(record, view, locale),
            "labels": self._labels(record, locale),
            "to_act": to_act if record.phase is Phase.PLAYING else [],
            "you": None if info is None else self._you(record, info, locale),
            "finished": record.phase in (Phase.FINISHED, Phase.ABANDONED),
        }

    @staticmethod
    def _seats(
        record: TableRecord, view: Mapping[str, Any] | None, locale: str
    ) -> list[dict[str, Any]]:
        teams = (view or {}).get("teams") or record.extra.get("teams") or []
        team_of = {int(s): n for n, members in enumerate(teams) for s in members}
        return [
            {
                "seat": s.index,
                "name": seat_words(record, s.index, locale),
                "colour": hex_colour(s.index, record.game),
                # The initial drawn on the seat's pawns and figures, in the reader's
                # language (German Ge/Gr, Hungarian P K S Z), as the PNG boards draw it.
                "initial": seat_letter(s.index, record.game, locale),
                "team": (
                    t("team.letter", locale, letter=team_of[s.index] + 1)
                    if s.index in team_of
                    else None
                ),
                "bot": s.is_bot,
                "left": s.left,
            }
            for s in sorted(record.seats, key=lambda seat: seat.index)
        ]

    @staticmethod
    def _since(
        record: TableRecord, history: Sequence[HistoryEntry], seat: int | None, locale: str
    ) -> list[dict[str, Any]]:
        """The moves from the reader's newest decision on (a spectator: any person's)."""
        persons = {s.index for s in record.seats if s.user_id is not None and not s.is_bot}
        mine = persons if seat is None else {seat}
        start = 0
        for index in range(len(history) - 1, -1, -1):
            entry = history[index]
            if entry.kind in (HistoryKind.MOVE, HistoryKind.PICK) and entry.seat in mine:
                start = index
                break
        told = history[start:][-SINCE_LIMIT:]
        return [
            {
                "number": entry.number,
                "seat": entry.seat,
                "text": history_line(
                    entry,
                    seat_words(record, entry.seat, locale) if entry.seat is not None else "",
                    locale,
                    game=record.game,
                ),
                "events": [dict(e) for e in entry.events],
            }
            for entry in told
        ]

    @staticmethod
    def status(record: TableRecord, view: Mapping[str, Any] | None, locale: str) -> str:
        """Whose turn it is (or the winners), as the thread says it, with names."""
        if record.phase is Phase.LOBBY:
            return t("lobby.phase.lobby", locale)
        if record.phase is Phase.ABANDONED:
            return t("lobby.phase.abandoned", locale)
        to_act = [int(s) for s in (view or {}).get("to_act") or []]
        return turn_status(
            record,
            view,
            to_act,
            record.winners,
            locale,
            lambda seat: seat_words(record, seat, locale),
            finished=view is None,
        )

    @staticmethod
    def _labels(record: TableRecord, locale: str) -> dict[str, str]:
        game = t(f"game.{record.game}", locale)
        return {
            "title": t("live.title", locale, game=game, table=record.id),
            "since": t("live.since", locale),
            "you": t("live.you", locale),
            "spectating": t("live.spectating", locale),
            "hand": t("live.hand", locale),
            "replay": t("live.replay", locale),
            "replay_first": t("replay.first", locale),
            "replay_back": t("replay.back", locale),
            "replay_forward": t("replay.forward", locale),
            "replay_last": t("replay.last", locale),
            "cancel": t("live.cancel", locale),
            "offline": t("live.offline", locale),
        }

    def _you(self, record: TableRecord, info: PrivateInfo, locale: str) -> dict[str, Any]:
        assert info.seat is not None
        view = info.view or {}
        hand = [str(card) for card in view.get("hand") or []]
        options = self.options(record.game, info, locale)
        targets: dict[str, str] = {}
        for option in options:
            for step in option["path"]:
                if step not in targets:
                    words = target_words(step, record.game, locale)
                    if words is not None:
                        targets[step] = words
        prompt = ""
        if options:
            prompt = t("live.prompt", locale)
            if record.game == "carcassonne":
                figure = view.get("phase") == "figure"
                prompt = t("live.prompt_figure" if figure else "live.prompt_tile", locale)
            elif view.get("phase") == "exchange":
                prompt = t("live.prompt_exchange", locale)
        return {
            "seat": info.seat,
            "hand": [{"token": c, "text": card_face(c, locale)} for c in hand],
            "pick": info.pick,
            "options": options,
            "prompt": prompt,
            "targets": targets,
        }

    @staticmethod
    def options(game: str, info: PrivateInfo, locale: str) -> list[dict[str, Any]]:
        """The seat's legal moves as click paths, each with its words (the prompts' labels)."""
        if info.seat is None or not info.legal_moves:
            return []
        moves = list(info.legal_moves)
        paths = option_paths(game, moves, info.seat)
        texts = [str(say(label, locale)) for label in info.labels]
        return [{"path": path, "text": text} for path, text in zip(paths, texts, strict=False)]

    # --- moves ------------------------------------------------------------------------------

    async def move_by_path(
        self, table_id: int, user_id: int, path: Sequence[str], version: int, locale: str
    ) -> tuple[Effects, str]:
        """Play the option whose click path is ``path`` for ``user_id``'s seat, through the
        same call a button makes (version check, the engine, the commit, the bots after it).
        Returns the effects (for the front end that posts the thread's digest) and the move
        in the reader's words. A path that is none of the seat's options is refused
        (:class:`ForgedPath`; :class:`StaleVersion` when the page was behind)."""
        info = await self._play.private_info(table_id, user_id)
        if info.seat is None:
            raise NotSeated()
        record = info.table
        if record.phase is not Phase.PLAYING:
            raise StaleVersion()
        moves = list(info.legal_moves)
        if not moves:
            if version < record.version:
                raise StaleVersion()
            raise NotYourTurn()
        wanted = [str(step) for step in path]
        index = option_index(option_paths(record.game, moves, info.seat), wanted)
        if index is not None:
            effects = await self._play.act(table_id, user_id, moves[index], version)
            return effects, _played_words(effects, info.labels, index, locale)
        if version < record.version:
            raise StaleVersion()
        raise ForgedPath()

    # --- after the game ---------------------------------------------------------------------

    async def replay_frames(self, table_id: int, locale: str) -> list[dict[str, Any]]:
        """Every position of a finished table as a spectator's ``state`` (the first before
        any move), from the history the replay viewer reads. Refused while it is played."""
        record = await self._store.get(table_id)
        if record.phase is not Phase.FINISHED:
            raise NoReplayYet()
        record, first, steps = await self._results.public_history(table_id)
        seats = self._seats(record, first, locale)
        labels = self._labels(record, locale)
        frames: list[dict[str, Any]] = []
        _, history = await self._views.history(table_id, None)
        lines = {entry.number: entry for entry in history}
        for position in range(len(steps) + 1):
            step = steps[position - 1] if position else None
            view = step.view if step is not None else first
            since: list[dict[str, Any]] = []
            if step is not None and (entry := lines.get(step.index + 1)) is not None:
                since = self._since(record, [entry], None, locale)
            frames.append(
                {
                    "type": "state",
                    "table": record.id,
                    "game": record.game,
                    "version": position,
                    "locale": locale,
                    "phase": str(record.phase),
                    "public": dict(view),
                    "seats": seats,
                    "since": since,
                    "status": t("live.replay_position", locale, position=position, last=len(steps)),
                    "labels": labels,
                    "to_act": [],
                    "you": None,
                    "finished": True,
                }
            )
        return frames


def _played_words(effects: Effects, labels: Sequence[Any], index: int, locale: str) -> str:
    """The move just played, in the words the thread and the page's list tell it (a prompt's
    label names cells and options by the numbers of Discord's images, which the page does not
    draw); a secret move (an exchange pick) by its label, which only its player reads."""
    for update in effects.public:
        if update.kind == "action" and update.by_person and update.move is not None:
            return str(update.message.text(locale))
    return str(say(labels[index], locale)) if index < len(labels) else ""
