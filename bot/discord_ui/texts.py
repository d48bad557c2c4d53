"""Words for the messages: lobby, board captions, and move labels for buttons.

Everything here is a pure function of public data (table records, public updates, the
viewer's own view), so it can be tested without Discord and never reveals a hand. Every
function takes the reader's ``locale`` (default English); the words come from
:mod:`i18n`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.model.table import Phase, TableRecord
from i18n import t
from i18n.message import list_words, say
from i18n.moves import race_label
from i18n.words import card_text
from i18n.words import options_line as _options_line

if TYPE_CHECKING:
    import discord

GAME_TITLES = {"tock": "Tock", "dog": "Dog", "carcassonne": "Carcassonne"}
COLOUR_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
RANK_WORDS = {"A": "A", "J": "J", "Q": "Q", "K": "K", "X": "Joker"}


def display_name(user: discord.abc.User) -> str:
    """The name to show for a user at a table (their name on the server, else their own)."""
    return getattr(user, "display_name", None) or user.name


def seat_name(table: TableRecord, seat: int | None, locale: object = "en") -> str:
    """The display name of a seat (a person, a bot, or the seat number when free)."""
    if seat is None:
        return t("seat.nobody", locale)
    said = say(table.seat_label(seat), locale)
    return said if isinstance(said, str) else str(said)  # a Phrase keeps its article forms


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
        kept = (table.extra.get("reserved") or {}).get(str(seat)) if table.extra else None
        if s.user_id is None and not s.is_bot and not s.left and kept is not None:
            who = t("rematch.waiting", locale, mention=f"<@{kept}>")  # a rematch's kept seat
        elif s.user_id is None and not s.is_bot and not s.left:
            who = t("lobby.free", locale)
        elif s.is_bot and s.user_id is None:
            level = t(f"bot_level.{s.bot_level}", locale) if s.bot_level else ""
            who = t("lobby.bot", locale, name=str(say(s.label, locale)), level=level)
        else:
            who = s.name or f"<@{s.user_id}>"
            if s.left:
                who = t("lobby.left", locale, name=who)
        if seat in team_of:
            # Teams are numbered as /table join team: and the results number them.
            team = t("team.letter", locale, letter=team_of[seat] + 1)
            lines.append(t("lobby.seat_line_team", locale, position=position, who=who, team=team))
        else:
            lines.append(t("lobby.seat_line", locale, position=position, who=who))
    lines.append("")
    phase_key = PHASE_LINES.get(table.phase)
    lines.append(t(phase_key, locale) if phase_key else "")
    if table.phase is Phase.FINISHED and table.winners:
        names = list_words([seat_name(table, s, locale) for s in table.winners], locale)
        lines.append(t("lobby.winners", locale, names=names, count=len(table.winners)))
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


def move_label(
    move: str,
    view: Mapping[str, Any],
    names: Mapping[int, str],
    locale: object = "en",
    events: Sequence[Mapping[str, Any]] = (),
) -> str:
    """A race move in words, for a button (see :func:`i18n.moves.race_label`)."""
    return race_label(move, view, names, events).text(locale)


def card_label(token: str, locale: object = "en") -> str:
    """A card token for a button (``J`` is ``B`` in German and Hungarian)."""
    return card_text(token, locale)
