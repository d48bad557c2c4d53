"""Words for the messages: lobby, board captions, and move labels for buttons.

Everything here is a pure function of public data (table records, public updates, the
viewer's own view), so it can be tested without Discord and never reveals a hand. Every
function takes the reader's ``locale`` (default English); the words come from
:mod:`i18n`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.discord_ui.retranslate import retranslate
from bot.table_model import Phase, TableRecord
from i18n import t, tn
from i18n.words import card_text
from i18n.words import options_line as _options_line

#: The service's names for bot seats, read back to say them in the reader's language.
_BOT_NAMES = ("table.bot_name", "table.bot_suffix")
GAME_TITLES = {"tock": "Tock", "dog": "Dog", "carcassonne": "Carcassonne"}
COLOUR_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
RANK_WORDS = {"A": "A", "J": "J", "Q": "Q", "K": "K", "X": "Joker"}


def seat_name(table: TableRecord, seat: int | None, locale: object = "en") -> str:
    """The display name of a seat (a person, a bot, or the seat number when free)."""
    if seat is None:
        return t("seat.nobody", locale)
    for s in table.seats:
        if s.index == seat:
            if s.is_bot and s.user_id is None:
                if not s.name:
                    return t("seat.bot", locale, number=seat + 1)
                # The service names bots in English ("Bot 2 (easy)", "Ann (bot)").
                return retranslate(s.name, locale, _BOT_NAMES)
            return s.name or t("seat.player", locale, number=seat + 1)
    return t("seat.seat", locale, number=seat + 1)


def seat_names(table: TableRecord, seats: Sequence[int], locale: object = "en") -> list[str]:
    """Names of ``seats`` (for the renderer: one per seat in use, in the view's order)."""
    return [seat_name(table, seat, locale) for seat in seats]


def mention(table: TableRecord, seat: int, locale: object = "en") -> tuple[str, int | None]:
    """How to name a seat in a message: ``<@id>`` for a person, the name for a bot."""
    for s in table.seats:
        if s.index == seat and s.user_id is not None and not s.left and not s.is_bot:
            return f"<@{s.user_id}>", s.user_id
    return f"**{seat_name(table, seat, locale)}**", None


def teams_of(table: TableRecord) -> list[list[int]] | None:
    """The teams of the table as seat lists, or None without teams."""
    teams = table.extra.get("teams") if table.extra else None
    if teams:
        return [list(t) for t in teams]
    if table.game == "dog":
        return [[0, 2], [1, 3]] if table.players == 4 else [[0, 3], [1, 4], [2, 5]]
    mode = table.options.get("game_type") or table.options.get("teams")
    if table.game == "tock" and mode == "2v2":
        return [[0, 2], [1, 3]]
    if table.game == "tock" and mode == "2v2v2":
        return [[0, 3], [1, 4], [2, 5]]
    return None


def options_line(table: TableRecord, locale: object = "en") -> str:
    """The table options in one line."""
    line = _options_line(table.players, table.options, table.turn_time, locale)
    return f"{line} · {t('hint.options', locale)}" if table.hints else line


PHASE_LINES = {
    Phase.LOBBY: "lobby.phase.lobby",
    Phase.PLAYING: "lobby.phase.playing",
    Phase.FINISHED: "lobby.phase.finished",
    Phase.ABANDONED: "lobby.phase.abandoned",
}


def lobby_text(table: TableRecord, locale: object = "en") -> str:
    """The lobby message: game, host, options, seats with teams, and the table's state."""
    title = GAME_TITLES.get(table.game, table.game)
    head = t("lobby.title", locale, game=title, table=table.id, host=f"<@{table.host_id}>")
    lines = [head, options_line(table, locale)]
    # The table's level matters while bots are added, and in play if leavers get a bot.
    if table.phase is Phase.LOBBY or (
        table.phase is Phase.PLAYING and table.absent_policy == "bot"
    ):
        level = t(f"bot_level.{table.bot_level}", locale)
        lines.append(t("lobby.bot_level", locale, level=level))
    lines.append("")
    teams = teams_of(table)
    team_of: dict[int, int] = {}
    if teams:
        for number, members in enumerate(teams):
            for seat in members:
                team_of[seat] = number
    # The service lists every seat: in the lobby one per position (free ones have nobody),
    # in play the engine's seats.
    for position, s in enumerate(sorted(table.seats, key=lambda seat: seat.index), start=1):
        seat = s.index
        if s.user_id is None and not s.is_bot and not s.left:
            who = t("lobby.free", locale)
        elif s.is_bot and s.user_id is None:
            level = t(f"bot_level.{s.bot_level}", locale) if s.bot_level else ""
            name = retranslate(s.name, locale, _BOT_NAMES) or t("lobby.bot_default", locale)
            if level and f"({level})" in name:  # "Bot 2 (hard)" says its level already
                who = t("lobby.bot_named", locale, name=name)
            else:
                who = t("lobby.bot", locale, name=name, level=level)
        else:
            who = s.name or f"<@{s.user_id}>"
            if s.left:
                who = t("lobby.left", locale, name=who)
        if seat in team_of:
            team = t("team.letter", locale, letter=chr(ord("A") + team_of[seat]))
            lines.append(t("lobby.seat_line_team", locale, position=position, who=who, team=team))
        else:
            lines.append(t("lobby.seat_line", locale, position=position, who=who))
    lines.append("")
    phase_key = PHASE_LINES.get(table.phase)
    lines.append(t(phase_key, locale) if phase_key else "")
    if table.phase is Phase.FINISHED and table.winners:
        names = ", ".join(seat_name(table, s, locale) for s in table.winners)
        lines.append(t("lobby.winners", locale, names=names))
    return "\n".join(lines)[:2000]


# --- race games: cards and moves in words -------------------------------------------------------

_PLAY = re.compile(r"(?P<card>X=(?P<declared>[0-9AJQK]+)|[0-9AJQKX]+):(?P<action>.+)")


def card_of_move(move: str) -> str | None:
    """The hand token a race move uses (``"X"`` for a joker), or None for ``F`` / segments."""
    if move.startswith("G:"):
        return move[2:]
    match = _PLAY.fullmatch(move)
    if match is None:
        return None
    return "X" if match["declared"] else match["card"]


def declared_of_move(move: str) -> str | None:
    """The kind a joker is declared as in ``move`` (``"X=7:..."`` -> ``"7"``), else None."""
    match = _PLAY.fullmatch(move)
    return match["declared"] if match else None


def _seat_word(names: Mapping[int, str], seat: int, locale: object) -> str:
    return names.get(seat) or t("move.seat", locale, number=seat + 1)


def _location(loc: str, viewer: int | None, names: Mapping[int, str], locale: object = "en") -> str:
    if loc.startswith("r"):
        return loc[1:]
    if loc.startswith("h"):
        seat_text, slot = loc[1:].split(".", 1)
        seat = int(seat_text)
        if seat == viewer:
            return t("move.home", locale, slot=slot)
        return t("move.home_other", locale, name=_seat_word(names, seat, locale), slot=slot)
    return loc


def _owner(view: Mapping[str, Any], loc: str) -> int | None:
    for seat, locations in (view.get("pawns") or {}).items():
        for held in locations:
            if str(held).rstrip("*") == loc:
                return int(seat)
    return None


def describe_walks(
    walks: str,
    view: Mapping[str, Any],
    names: Mapping[int, str],
    viewer: int | None,
    *,
    show_steps: bool = False,
    locale: object = "en",
) -> str:
    """``r11-r14,r10-r14`` -> ``pawn on 11 → 14, pawn on 10 → 14`` (with owners when foreign).

    ``show_steps`` adds the steps of ring walks (for the 7, whose steps are shared out).
    """
    parts = []
    ring = (view.get("board") or {}).get("ring")
    for walk in walks.split(","):
        start, _, end = walk.partition("-")
        owner = _owner(view, start)
        begin, finish = (
            _location(start, viewer, names, locale),
            _location(end, viewer, names, locale),
        )
        if owner is None or owner == viewer:
            text = t("move.walk", locale, start=begin, end=finish)
        else:
            name = names.get(owner, "?")
            text = t("move.walk_other", locale, name=name, start=begin, end=finish)
        if show_steps and ring and start.startswith("r") and end.startswith("r"):
            steps = (int(end[1:]) - int(start[1:])) % int(ring)
            if 0 < steps <= 7:
                text = tn("move.steps", steps, locale, walk=text)
        parts.append(text)
    return ", ".join(parts)


def move_label(
    move: str, view: Mapping[str, Any], names: Mapping[int, str], locale: object = "en"
) -> str:
    """A race move in words, for a button: ``K: bring a pawn out``, ``Q: pawn on 17 → 29``."""
    viewer = view.get("viewer")
    if move == "F":
        return t("move.fold", locale)
    if move.startswith("G:"):
        return t("move.give", locale, card=card_label(move[2:], locale))
    match = _PLAY.fullmatch(move)
    if match is None:  # a bare segment of a pending 7
        return describe_walks(move, view, names, viewer, show_steps=True, locale=locale)
    declared = match["declared"]
    if declared:
        card = t("move.joker_as", locale, card=card_label(declared, locale))
    else:
        card = card_label(match["card"], locale)
    action = match["action"]
    if action == "D":
        text = t("move.discard", locale)
    elif action.startswith("E"):
        target = action[1:]
        text = (
            t("move.bring_out", locale)
            if not target
            else t("move.bring_out_of", locale, name=_seat_word(names, int(target), locale))
        )
    elif action == "N":
        text = t("move.null_swap", locale)
    elif "<>" in action:
        mine, _, other = action.partition("<>")
        owner = _owner(view, other)
        if owner is None:
            text = t("move.swap_unknown", locale, mine=mine[1:], other=other[1:])
        elif owner == viewer:
            text = t("move.swap_own", locale, mine=mine[1:], other=other[1:])
        else:
            name = _seat_word(names, owner, locale)
            text = t("move.swap_other", locale, mine=mine[1:], name=name, other=other[1:])
    else:
        seven = match["card"] in ("7", "X=7")
        text = describe_walks(action, view, names, viewer, show_steps=seven, locale=locale)
    return t("move.card_action", locale, card=card, action=text)


def card_label(token: str, locale: object = "en") -> str:
    """A card token for a button (``J`` is ``B`` in German and Hungarian)."""
    return card_text(token, locale)
