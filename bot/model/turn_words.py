"""Whose turn it is, in words: the status line of a table, for every front end.

The thread's board says it with mentions (the people owing a decision are pinged), the live
board with names; both say it with the same catalogue sentences through :func:`turn_status`,
given how to name a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.model.table import Phase, TableRecord
from i18n import t
from i18n.events import tile_words
from i18n.message import list_words, say


def seat_words(table: TableRecord, seat: int, locale: object = "en") -> str:
    """How sentences name a seat (the person, the bot, or the seat's number)."""
    said = say(table.seat_label(seat), locale)
    return said if isinstance(said, str) else str(said)  # a Phrase keeps its article forms


def turn_status(
    table: TableRecord,
    view: Mapping[str, Any] | None,
    to_act: Sequence[int],
    winners: Sequence[int],
    locale: str,
    who: Callable[[int], str],
    *,
    finished: bool = False,
) -> str:
    """Whose turn it is (``who`` names a seat owing a decision: a mention or a name), the
    exchange with who already chose, the tile to place, or the winners; "" when no one owes
    anything."""
    if finished or table.phase is Phase.FINISHED:
        if winners:
            names = list_words([seat_words(table, s, locale) for s in winners], locale)
            return t("turn.game_over_winners", locale, names=names, count=len(winners))
        return t("turn.game_over", locale)
    if table.phase is Phase.ABANDONED or not to_act:
        return ""
    view = view or {}
    if len(to_act) > 1 or view.get("phase") == "exchange":
        picked = view.get("exchanged") or []
        names = list_words([seat_words(table, s, locale) for s in picked], locale)
        done = t("turn.picked", locale, names=names) if picked else ""
        key = "turn.exchange" if len(to_act) > 1 else "turn.exchange_one"  # du / ihr
        return t(key, locale, mentions=", ".join(who(s) for s in to_act), picked=done)
    text = who(to_act[0])
    if table.game == "carcassonne" and view.get("phase") == "place" and view.get("current_tile"):
        left = view.get("tiles_left")
        pile = t("turn.pile", locale, count=left) if left is not None else ""
        tile = tile_words(str(view["current_tile"])).text(locale)
        return t("turn.with_tile", locale, mention=text, tile=tile, pile=pile)
    if table.game == "carcassonne" and view.get("phase") == "figure":
        return t("turn.figure", locale, mention=text)
    return t("turn.yours", locale, mention=text)
