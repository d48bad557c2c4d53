"""The sentence lint: what a player reads must read as a person would write it.

:func:`problems` judges one text a player can read, in its locale: no notation token or
internal id, no ``{`` ``}`` or catalogue key, no word said twice in a row, plurals that agree
with their number, sentences that end in punctuation and are separated from the next, and no
English words in German or Hungarian text except names. :func:`play_and_collect` plays seeded
games through the table service (bots and a scripted person) and collects every text a player
can read of them: public updates, whose turn it is, private updates, move labels, refusals of
bad input and the lobby.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from i18n.catalog import LOCALES, keys, use_game_terms

#: Texts of these kinds are sentences: they end in punctuation.
SENTENCE_KINDS = frozenset({"public", "private", "refusal", "turn"})

_NOTATION = [
    (re.compile(r"\b[rk]\d{1,2}\b"), "a location in notation (r12, k0)"),
    (re.compile(r"\bh\d\.\d\b"), "a home field in notation (h1.3)"),
    (re.compile(r"\b(?:[2-9]|10|[AJQKX])(?:=\w+)?:[^\s]"), "a card play in notation (K:E)"),
    (re.compile(r"<>"), "a swap in notation (<>)"),
    (re.compile(r"\b(?:city|road|field|farm)\d\b"), "a Carcassonne segment id (city0)"),
    (re.compile(r"\b(?:follower|big|builder|pig):"), "a figure action in notation"),
    (re.compile(r"-?\d+,-?\d+@\d+"), "a placement in notation (0,1@90)"),
    (re.compile(r"\*\*[A-Z]{1,2}\d{0,2}\*\*"), "a tile id (**R04**)"),
    (re.compile(r"(?:pawns|scores) \d:"), "a status line in notation"),
    (re.compile(r"\(page 1 of 1\)|\(1/1\)"), "a page count on a single page"),
]
_KEYLIKE = re.compile(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b")
_DOUBLED = re.compile(r"\b(\w{2,})[)\]]?\s+[(\[]?\1\b", re.IGNORECASE)
#: Words a language does say twice: "mindenki mindenki ellen" (everyone against everyone).
_IDIOMS = frozenset({"mindenki"})
#: (singular noun, plural noun) per locale: a number must agree with the noun after it.
_NOUNS = {
    "en": [
        ("tile", "tiles"),
        ("card", "cards"),
        ("player", "players"),
        ("field", "fields"),
        ("step", "steps"),
        ("second", "seconds"),
        ("point", "points"),
        ("shield", "shields"),
        ("token", "tokens"),
        ("cell", "cells"),
        ("neighbour", "neighbours"),
    ],
    "de": [
        ("Karte", "Karten"),
        ("Feld", "Felder"),
        ("Schritt", "Schritte"),
        ("Sekunde", "Sekunden"),
        ("Punkt", "Punkte"),
        ("Nachbar", "Nachbarn"),
    ],
    "hu": [],  # a Hungarian noun after a number stays singular: nothing to agree
}
#: English words that never belong in German or Hungarian text (names aside).
_ENGLISH = re.compile(
    r"\b(?:the|and|plays|places|puts|pawn|pawns|tile|tiles|turn|your|with|game|over|winner|"
    r"winners|won|seat|easy|hard|follower|city|road|field|farm|monastery|card|cards|discard|"
    r"discards|banned|kennel|home|points|Red|Blue|Green|Yellow|Purple|Orange|Black|Pink|left|"
    r"player|moves|steps|fields|start)\b"
)
_FUSED = [
    (re.compile(r"°\s+[A-Z]"), "a sentence runs on after an angle"),
    (re.compile(r"[a-z0-9)]\s+(?:Game over|Winner|Spielende|Vége)\b"), "two sentences fused"),
    (re.compile(r"[.!?][A-ZÄÖÜÁÉÍÓÖŐÚÜŰ]"), "no space after a sentence"),
]


def problems(text: str, locale: str, kind: str = "public", names: Iterable[str] = ()) -> list[str]:
    """What is wrong with ``text`` (empty when it reads well); ``names`` may appear as is."""
    found: list[str] = []
    plain = text
    for name in sorted(names, key=len, reverse=True):
        if name:
            plain = plain.replace(name, "Nomen")
    for pattern, why in _NOTATION:
        if pattern.search(plain):
            found.append(why)
    if "{" in plain or "}" in plain:
        found.append("a placeholder left unfilled")
    catalogue_keys = keys("en")
    found += [f"a catalogue key ({k})" for k in _KEYLIKE.findall(plain) if k in catalogue_keys]
    doubled = _DOUBLED.search(plain)
    if doubled and not doubled.group(1).isdigit() and doubled.group(1) not in _IDIOMS:
        found.append(f"a word said twice ({doubled.group(0)!r})")
    for one, many in _NOUNS.get(locale, []):
        if re.search(rf"(?<![\d.,]){1}\s+\**{many}\b", plain.replace("**", "")):
            found.append(f"'1 {many}'")
        if re.search(rf"(?<![\d.,-])(?:0|[2-9]|\d\d+)\s+{one}\b", plain.replace("**", "")):
            found.append(f"a number with '{one}'")
    if locale == "en" and re.search(r"\ba [aeiou8]", plain, re.IGNORECASE):
        found.append("'a' before a vowel")
    if kind in SENTENCE_KINDS and plain and not re.search(r"[.!?…)*]$", plain.rstrip()):
        found.append("a sentence without its full stop")
    for pattern, why in _FUSED:
        if pattern.search(plain):
            found.append(why)
    if locale != "en":
        english = _ENGLISH.findall(plain)
        if english:
            found.append(f"English words in {locale}: {english}")
    return found


@dataclass
class Collected:
    """Every text a player could read, per locale and kind, with the names at the table."""

    texts: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)

    def add(self, locale: str, kind: str, text: str) -> None:
        if text:
            self.texts.setdefault((locale, kind), set()).add(text)

    def report(self) -> list[str]:
        """One line per text that has problems."""
        lines = []
        for (locale, kind), texts in sorted(self.texts.items()):
            for text in sorted(texts):
                wrong = problems(text, locale, kind, self.names)
                if wrong:
                    lines.append(f"[{locale} {kind}] {text!r}: {'; '.join(wrong)}")
        return lines


#: The game and option families the lint plays: (game, players, options).
FAMILIES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "tock-ffa": ("tock", 4, {}),
    "tock-2v2": ("tock", 4, {"game_type": "2v2"}),
    "dog": ("dog", 4, {}),
    "carcassonne": ("carcassonne", 2, {}),
    "carcassonne-expansions": (
        "carcassonne",
        3,
        {"river": True, "inns_cathedrals": "full", "traders_builders": "full", "farms": "first"},
    ),
}
PERSON = "anna"


async def play_and_collect(
    family: str, seed: int, collected: Collected, person_turns: int | None = None
) -> None:
    """Play one seeded game of ``family`` (one scripted person, bots in the other seats) and
    add what its players could read, in every language, to ``collected``.

    ``person_turns`` stops the game after that many of the person's decisions (the openings
    of many games); ``None`` plays it to the end (scores, winners, the lobby afterwards).
    """
    from bot.bots import random_chooser
    from bot.discord_ui.publisher import turn_line
    from bot.discord_ui.texts import lobby_text
    from bot.storage import open_storage
    from bot.table_model import TableError
    from bot.tables import TableService

    game, players, options = FAMILIES[family]
    use_game_terms(game)  # as the front ends say a table's messages: in its game's words
    storage = await open_storage(":memory:")
    service = TableService(storage, choose_bot_move=random_chooser, snapshot_every=0)
    rng = random.Random(seed)
    try:
        created = await service.create(
            1, 1, game, 100, PERSON, players=players, options=options, seed=seed
        )
        table_id = created.table.id
        updates = list(created.public)
        for _ in range(players - 1):
            updates += (await service.add_bot(table_id, 100, "easy")).public
        effects = await service.start_game(table_id, 100)
        collected.names.add(PERSON)

        def take(effects: Any) -> None:
            for update in [*updates, *effects.public]:
                for locale in LOCALES:
                    collected.add(locale, "public", update.message.text(locale))
                    collected.add(locale, "turn", turn_line(effects.table, update, locale)[0])
            updates.clear()
            for private in effects.private:
                for locale in LOCALES:
                    collected.add(locale, "private", private.message.text(locale))

        take(effects)
        for turn in range(2000 if person_turns is None else person_turns):
            table = await service.get(table_id)
            if table.phase != "playing":
                break
            info = await service.private_info(table_id, 100)
            if not info.legal_moves:
                break
            if turn % 7 == 0:
                for locale in LOCALES:
                    for label in info.labels:
                        collected.add(locale, "label", label.text(locale))
            if turn % 25 == 0:
                # An illegal move, and a stale button (a version from before the start).
                version = info.table.version
                for bad, at in (("nonsense", version), (info.legal_moves[0], 0)):
                    try:
                        await service.act(table_id, 100, bad, at)
                    except TableError as error:
                        for locale in LOCALES:
                            collected.add(locale, "refusal", error.text(locale))
            move = rng.choice(list(info.legal_moves))
            take(await service.act(table_id, 100, move, info.table.version))
        final = await service.get(table_id)
        for locale in LOCALES:
            collected.add(locale, "lobby", lobby_text(final, locale))
    finally:
        await storage.close()
