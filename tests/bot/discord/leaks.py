"""Finding secrets in what a reader can read: card mentions, the engine's truth, the log.

Cards are short tokens (``K``, ``7``), so a bare token in a text proves nothing. A *mention*
is a card in a form the bot writes cards in, in any of the three languages:

* a filled catalogue template with a ``{card}`` placeholder (every sentence and label the bot
  makes about one card, read from the catalogues themselves, so a new sentence is covered);
* move notation (``K:r3-r16``, ``X=7:…``, ``G:K``), a bold card (``**K**``) or a card's name
  (``King``, ``König``, ``Király``, …);
* a card in a custom_id (``:give:K``, ``:jok:7``, ``:mv:K:2``).

Each mention a reader reads must be accounted for by what that reader may know at that
moment, taken from the engine state (:class:`Knowledge`): their own hand, pick and received
card, and the cards that just became public (played, discarded, folded, a pending 7).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from i18n import LOCALES, t
from i18n.catalog import catalogue, forms, word_forms
from i18n.words import card_text
from tests.fakediscord.models import Message, iter_components

TOKENS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")
#: The controls a public message may carry: none of them names a card.
PUBLIC_ACTIONS = frozenset(
    {"join", "leave", "bot", "botlvl", "start", "hand", "tile", "put"}
    | {"rematch", "replay"}  # the results post: they carry a finished table's id, no card
)
#: An exchange pick in move notation (N-7.2).
PICK_NOTATION = re.compile(r"(?<![\w=:])G:(?P<card>10|[2-9AJQKX])(?!\w)")


@cache
def card_words() -> Mapping[str, str]:
    """Every way the bot writes a card, in every language -> the card's token."""
    words: dict[str, str] = {}
    for locale in LOCALES:
        for token in TOKENS:
            words[card_text(token, locale)] = token
            words[t(f"card.name.{token}", locale)] = token
            words[t(f"card.acc.{token}", locale)] = token  # "a King", "einen König" …
            for kind in ("name", "acc", "as"):  # Hungarian cases: "ászt", "5-öst", "ászként"
                for form in word_forms(locale).get(f"card.{kind}.{token}", {}).values():
                    words[form] = token
    for word, token in list(words.items()):
        # A word that opens a label ("{card:cap} átadása": "Dáma átadása …").
        words.setdefault(word[:1].upper() + word[1:], token)
    for token in TOKENS:
        words.setdefault(token, token)
    return words


def _alternatives() -> str:
    return "|".join(re.escape(w) for w in sorted(card_words(), key=len, reverse=True))


#: A placeholder, with an optional format spec (``{card:a}`` puts the article in front).
_PLACEHOLDER = re.compile(r"(\{\w+(?::\w+)?\})")


def _template_regex(template: str, card: str) -> str:
    parts = _PLACEHOLDER.split(template)
    regex = []
    for part in parts:
        if part.startswith("{card"):
            regex.append(("(?:[Aa]z? )?" if ":" in part else "") + card)
        elif _PLACEHOLDER.fullmatch(part):
            regex.append(r"[^\n]*?")
        else:
            regex.append(re.escape(part))
    return "".join(regex).strip()


def _card_templates() -> Iterator[str]:
    for locale in LOCALES:
        for key, entry in catalogue(locale).items():
            for template in forms(entry):
                if re.search(r"\{card(?::\w+)?\}", template) and not key.startswith("rules."):
                    yield template


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """The card-bearing forms in running text: templates with ``{card}`` that have words
    around the card, notation, bold cards and card names."""
    card = rf"\**(?P<card>{_alternatives()})\**"
    found: dict[str, re.Pattern[str]] = {}
    for template in _card_templates():
        literal = _PLACEHOLDER.sub("", template).strip(" .:*")
        if len(literal) >= 3:  # too few words around it to find the card in running text
            regex = _template_regex(template, card)
            found[regex] = re.compile(rf"(?<!\w){regex}" if template.startswith("{") else regex)
    names = "|".join(re.escape(w) for w in card_words() if len(w) > 2 and not w.isdigit())
    return (
        *found.values(),
        PICK_NOTATION,
        re.compile(
            # a card's move (N-6): a walk, a swap, out (E), a discard (D) or a null swap (N)
            r"(?<![\w=:])(?P<card>10|[2-9AJQKX])(?:=(?:10|[2-9AJQK]))?:"
            r"(?=[rh][\d.]+(?:-|<>)|[EDN]\b)"
        ),
        re.compile(rf"\*\*(?P<card>{_alternatives()})\*\*"),
        re.compile(rf"(?<!\w)(?P<card>{names})(?!\w)"),
    )


@cache
def _label_patterns() -> tuple[re.Pattern[str], ...]:
    """Every template with ``{card}`` as a whole label (``1. K``, ``K: bring a pawn out``)."""
    card = rf"\**(?P<card>{_alternatives()})\**"
    regexes = dict.fromkeys(_template_regex(x, card) for x in _card_templates())
    return tuple(re.compile(regex) for regex in regexes)


@cache
def card_mentions(text: str, *, label: bool = False) -> frozenset[str]:
    """The cards (tokens) ``text`` mentions in a form the bot writes cards in; a ``label``
    (of a button or a menu option) is also read whole against every card template."""
    found: set[str] = set()
    for pattern in _patterns():
        for match in pattern.finditer(text):
            found.add(card_words()[match["card"].strip("*")])
    if label:
        if text.strip("*") in card_words():
            found.add(card_words()[text.strip("*")])
        for pattern in _label_patterns():
            match = pattern.fullmatch(text)
            if match is not None:
                found.add(card_words()[match["card"].strip("*")])
    return frozenset(found)


def pick_mentions(text: str) -> set[str]:
    """Cards written as an exchange pick in notation (``G:K``)."""
    return {m["card"] for m in PICK_NOTATION.finditer(text)}


def control_cards(custom_id: str) -> tuple[str | None, set[str]]:
    """A custom_id's action and the card it carries (``t:1:v:9:give:K`` -> ``give``, {K})."""
    parts = custom_id.split(":")
    if len(parts) < 5 or parts[0] != "t" or parts[2] != "v":
        return None, set()
    action, args = parts[4], parts[5:]
    if action in ("give", "jok", "mv", "pg") and args:
        token = "X" if args[0].startswith("X=") else args[0]
        if token in TOKENS:
            return action, {token}
    return action, set()


# --- what a message shows -------------------------------------------------------------------


@dataclass
class Shown:
    """Everything one message showed at one moment, and who could read it."""

    readers: frozenset[int] | None  # None: everyone in the channel
    texts: list[str]
    labels: list[str]
    custom_ids: list[str]
    what: str
    message_id: int = 0

    def strings(self) -> list[str]:
        return self.texts + self.labels + self.custom_ids

    def mentions(self) -> set[str]:
        """Every card the message mentions, in its texts and labels."""
        found = set().union(*(card_mentions(x) for x in self.texts)) if self.texts else set()
        for x in self.labels:
            found |= card_mentions(x, label=True)
        return found


def shown(message: Message) -> Shown:
    """The texts, labels, values, placeholders, custom_ids and file names of a message."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [embed.get("title", ""), embed.get("description", "")]
        texts += [
            (embed.get("footer") or {}).get("text", ""),
            (embed.get("author") or {}).get("name", ""),
        ]
        for f in embed.get("fields", []):
            texts += [f.get("name", ""), f.get("value", "")]
    labels, custom_ids = [], []
    for component in iter_components(message.components):
        for key in ("label", "placeholder"):
            if component.get(key):
                labels.append(str(component[key]))
        if component.get("content"):
            texts.append(str(component["content"]))
        for option in component.get("options", []):
            labels.append(str(option.get("label", "")))
            texts += [str(option.get(k, "")) for k in ("value", "description")]
        if component.get("custom_id"):
            custom_ids.append(str(component["custom_id"]))
    texts += [f.filename for f in message.files]
    readers = None if message.visible_to is None else frozenset(message.visible_to)
    return Shown(
        readers,
        [x for x in texts if x],
        [x for x in labels if x],
        custom_ids,
        message.content,
        message.id,
    )


# --- what a reader may know -----------------------------------------------------------------


@dataclass
class Knowledge:
    """The cards a reader may read about, between two moments of a race game.

    Built from engine states (a window from the previous observation to this one, since a
    message may depict either): the reader's own hand, pick and received card, and the cards
    that became public in the window (played, discarded, folded, the pending 7).
    """

    own: set[str] = field(default_factory=set)
    public: set[str] = field(default_factory=set)
    #: What a joker in the reader's hand may be declared as now (its prompt names them).
    joker: set[str] = field(default_factory=set)

    def allows(self, card: str) -> bool:
        return card in self.own or card in self.public or card in self.joker


def knowledge(states: Sequence[Any], seat: int | None, played: Iterable[str] = ()) -> Knowledge:
    """What ``seat`` (None: a spectator) may read about, given the states of the window and
    the cards ``played`` in it."""
    known = Knowledge(public=set(played))
    first, last = states[0], states[-1]
    recent = 2 * len(last.cfg.seats)
    if len(last.discard) >= len(first.discard):
        recent += len(last.discard) - len(first.discard)
    else:  # the deck was shuffled again in between: what was on the pile stays readable
        recent += len(last.discard)
        known.public |= set(first.discard[-recent:])
    known.public |= set(last.discard[-recent:])
    for state in states:
        if state.seven is not None:
            known.public.add(state.seven.card)
        for event in state.events:  # the cards of the action that made the state
            if event.public:
                known.public |= {str(v) for v in event.data.values() if str(v) in TOKENS}
        if seat is None:
            continue
        known.own |= set(state.hands[seat])
        known.own |= {c for s, c in state.exchange if s == seat}
        # The card received in the last exchange, and the one the reader passed in it.
        known.own |= {c for s, c in state.received if seat in (s, state.cfg.partner[s])}
        if "X" in state.hands[seat]:
            known.joker |= joker_kinds(state, seat)
    return known


_JOKER_KINDS: dict[tuple[int, int], tuple[Any, frozenset[str]]] = {}


def joker_kinds(state: Any, seat: int) -> frozenset[str]:
    """The kinds the joker in ``seat``'s hand may be declared as in ``state`` (and 7, which a
    split 7 starts with), from the engine's legal moves."""
    known = _JOKER_KINDS.get((id(state), seat))
    if known is not None and known[0] is state:
        return known[1]
    from engine import get_game

    module = get_game("dog" if state.cfg.is_dog else "tock")
    kinds = {"7"}
    for move in module.legal_moves(state, seat):
        text = str(move)
        if text.startswith("X="):
            kinds.add(text[2:].split(":", 1)[0])
    _JOKER_KINDS[(id(state), seat)] = (state, frozenset(kinds))
    return frozenset(kinds)


def secret_runs(sequence: Sequence[str], length: int = 3) -> list[re.Pattern[str]]:
    """Patterns that find the first ``length`` items of a hidden order written in a row."""
    return _runs(tuple(sequence[:length])) if len(sequence) >= length else []


@cache
def _runs(items: tuple[str, ...]) -> list[re.Pattern[str]]:
    words = [rf"(?<![\w]){re.escape(s)}(?![\w])" for s in items]
    return [re.compile(r"\W{1,4}".join(words))]
