"""A table's history in the reader's language.

The table service decides what a reader may see of each entry (``bot.table_history``) and
hands over facts; this turns them into sentences, the same for every front end. It reads the
entries by their attributes only, so it needs nothing from the application.

An entry is said in words by default: the sentences the thread was told when it was made,
built from the entry's public events (:func:`i18n.events.action_message`). Notation (``K:E``)
is said only when the reader asks for it (``notation=True``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from i18n.catalog import game_terms, t
from i18n.events import action_message, card_word, event_messages
from i18n.message import Message, Said, joined, msg


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
    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...
    @property
    def board(self) -> Mapping[str, Any] | None: ...
    @property
    def names(self) -> Mapping[int, Any] | None: ...


def history_line(
    entry: HistoryFacts,
    who: str,
    locale: object,
    *,
    game: str | None = None,
    notation: bool = False,
) -> str:
    """One numbered line of the history: ``who`` names the entry's seat for the reader.

    In words (the default) a move says what it did, as the thread said it: its events'
    sentences in the words of ``game`` (without a game, or without events, that a move was
    made). With ``notation`` a move is its notation. An automatic action, a seat that left
    or was handed to a bot say so, followed by what the rules did then (in words).

    A pick names its card only when the service gave it (the reader's own pick, or the card
    their partner passed them once the exchange was over); otherwise it says that a card was
    chosen.
    """
    kind = str(entry.kind)
    if kind == "move" and notation:
        return t("desk.log_line", locale, number=entry.number, who=who, text=entry.move or "")
    details: list[Message] = []
    if not notation and game is not None:
        details = event_messages(entry.events, game=game, names=entry.names, board=entry.board)
    said: Said
    if kind == "move":
        said = action_message(game or "", who, details)
    else:
        said = joined([_head(entry, kind, who), *details])
    if game is None:
        return t("history.line", locale, number=entry.number, text=said.text(locale))
    with game_terms(game):  # German Dog's Pöppel, whichever front end asks
        return t("history.line", locale, number=entry.number, text=said.text(locale))


def _head(entry: HistoryFacts, kind: str, who: str) -> Message:
    """What an entry that is no plain move tells first: a pick, or the rules acting."""
    if kind != "pick":
        return msg(f"history.{kind}", who=who)
    if entry.card is None:
        return msg("history.pick_changed" if entry.changed else "history.pick", who=who)
    if entry.received:
        return msg("history.pick_received", who=who, card=card_word(entry.card, article=True))
    key = "history.pick_own_changed" if entry.changed else "history.pick_own"
    return msg(key, card=card_word(entry.card, article=True))
