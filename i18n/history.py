"""A table's history in the reader's language.

The table service decides what a reader may see of each entry (``bot.table_history``) and
hands over facts; this turns them into sentences, the same for every front end. It reads the
entries by their attributes only, so it needs nothing from the application.
"""

from __future__ import annotations

from typing import Protocol

from i18n.catalog import t
from i18n.words import card_text


class HistoryFacts(Protocol):
    """What a history entry tells (``bot.table_history.HistoryEntry`` has these)."""

    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def move(self) -> str | None: ...
    @property
    def card(self) -> str | None: ...
    @property
    def changed(self) -> bool: ...
    @property
    def received(self) -> bool: ...


def history_line(entry: HistoryFacts, who: str, locale: object) -> str:
    """One numbered line of the history: ``who`` names the entry's seat for the reader.

    A pick names its card only when the service gave it (the reader's own pick, or the card
    their partner passed them once the exchange was over); otherwise it says that a card was
    chosen.
    """
    kind = str(entry.kind)
    if kind == "move":
        return t("desk.log_line", locale, number=entry.number, who=who, text=entry.move or "")
    if kind == "pick":
        if entry.card is not None:
            card = card_text(entry.card, locale)
            if entry.received:
                text = t("history.pick_received", locale, who=who, card=card)
            elif entry.changed:
                text = t("history.pick_own_changed", locale, card=card)
            else:
                text = t("history.pick_own", locale, card=card)
        else:
            key = "history.pick_changed" if entry.changed else "history.pick"
            text = t(key, locale, who=who)
    else:
        text = t(f"history.{kind}", locale, who=who)
    return t("history.line", locale, number=entry.number, text=text)
