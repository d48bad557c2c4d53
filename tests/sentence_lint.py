"""The sentence lint: what a player reads must read as a person would write it.

:func:`problems` judges one text a player can read, in its locale: no notation token or
internal id, no ``{`` ``}`` or catalogue key, no word said twice in a row, plurals that agree
with their number, sentences that end in punctuation and are separated from the next, and no
English words in German or Hungarian text except names. :func:`play_and_collect` plays seeded
games through the table service (bots and a scripted person) and collects every text a player
can read of them: public updates, whose turn it is, private updates, move labels, refusals of
bad input, the lobby, the results post and (``draw``) every text drawn on the board, hand,
placement, figure-spot and results images. :func:`play_console_and_collect` plays them in
``poeppel play`` (the terminal front end, driven in this process with scripted input) and
collects what it prints.
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import re
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from i18n.catalog import LOCALES, keys, t, use_game_terms

#: Texts of these kinds are sentences: they end in punctuation. A ``caption`` (a text drawn on
#: an image, a wrapped sentence one line at a time), a ``label``, a line of the ``results``
#: post and a ``status`` line of the console need none.
SENTENCE_KINDS = frozenset({"public", "private", "refusal", "turn", "console", "prompt"})
#: A line of the terminal may end in a colon: it introduces what comes next (the moves, the
#: command that continues a game, the player's answer).
_COLON_KINDS = frozenset({"console", "prompt"})

_NOTATION = [
    (re.compile(r"\b[rk]\d{1,2}\b"), "a location in notation (r12, k0)"),
    (re.compile(r"\bh\d\.\d\b"), "a home field in notation (h1.3)"),
    (re.compile(r"\b(?:[2-9]|10|[AJQKX])(?:=\w+)?:[^\s]"), "a card play in notation (K:E)"),
    (re.compile(r"<>"), "a swap in notation (<>)"),
    (re.compile(r"\b(?:city|road|field|farm)\d\b"), "a Carcassonne segment id (city0)"),
    (re.compile(r"\b(?:follower|big|builder|pig):"), "a figure action in notation"),
    (re.compile(r"-?\d+,-?\d+@\d+"), "a placement in notation (0,1@90)"),
    (re.compile(r"\*\*[A-Z]{1,2}\d{0,2}\*\*"), "a tile id (**R04**)"),
    (
        re.compile(r"\b(?:Tiles?|Karten?|lapka|discarded|aussortiert|kidobva):? [A-X]\d{0,2}\b"),
        "a tile id in words (Tile R03, Karte D)",
    ),
    (re.compile(r"\b[A-X]\d{0,2} lapka\b"), "a tile id in words (V lapka)"),
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
#: Words of that list that are the locale's own words too (German says Orange for orange).
_OWN_WORDS = {"de": frozenset({"Orange"}), "hu": frozenset()}
#: What round 2 of the native review found that reads wrong in any words (issue 31).
_REVIEW_2 = [
    (re.compile(r"(?<![\d,.])0 →"), "the start field as a bare 0"),
    (
        re.compile(r"\b(?:Bot|bot|Spieler|Player|játékos)\s\d+\s\d"),
        "a name ending in a number runs into a number",
    ),
]
#: English colour initials and card letters where German or Hungarian words are due.
_LETTERS = re.compile(
    r"(?:\b(?:Partner|társ:)\s[RBYGPO]\b)|(?:(?:Ablage|dobott|Du gibst|adod át):?\s\**[QJXK]\b)"
)
#: The English seat initials (renderer.style.SEAT_LETTERS); a German or Hungarian image
#: says its own (``colour.initial.N``: Ge/Gr, P/K/S/Z …).
_ENGLISH_INITIALS = ("R", "B", "Y", "G", "P", "O")


@functools.cache
def _foreign_initials(locale: str) -> re.Pattern[str] | None:
    """A text that points at a seat by an English initial that is not ``locale``'s own
    initial of that colour: "anna (G)" (G reads Gelb or Grün), "Tausch · gewählt: R, Y",
    "Y ist durch eine 10 gesperrt", "K: a tízes miatt…" is fine (Kék)."""
    if locale == "en":
        return None
    own = {t(f"colour.initial.{seat}", locale) for seat in range(len(_ENGLISH_INITIALS))}
    foreign = "|".join(sorted(set(_ENGLISH_INITIALS) - own))
    if not foreign:
        return None
    return re.compile(
        rf"\((?:{foreign})\)"
        rf"|(?:gewählt|választott): (?:\w{{1,2}}, )*(?:{foreign})\b"
        rf"|^(?:{foreign})(?: ist\b|:? a tízes)"
    )


#: A Hungarian card name is a common noun: lower case inside a sentence ("A lapjaid: ász, 2,
#: dáma."), upper case only where it opens one.
_HU_CARD_CAPITAL = re.compile(r"[^.!?\s*]\**\s+\**(?:Ász|Bubi|Dáma|Király|Joker)\b")

#: A German sentence after a colon starts with a capital: these words begin one.
_LOWER_AFTER_COLON = re.compile(
    r": (?:du|er|es|wir|alle|wähle|verfolgt|drück|setze|das Spiel|der Renderer|ein paar)\b"
)
#: Hungarian *hely* beside a colour is a place in the ranking; a seat is *ülőhely*.
_HELY = re.compile(r"\bhely, (?:Piros|Kék|Sárga|Zöld|Lila|Narancssárga)\b")
_FUSED = [
    (re.compile(r"°\s+[A-Z]"), "a sentence runs on after an angle"),
    (re.compile(r"[a-z0-9)]\s+(?:Game over|Winner|Spielende|Vége)\b"), "two sentences fused"),
    (re.compile(r"[.!?][A-ZÄÖÜÁÉÍÓÖŐÚÜŰ]"), "no space after a sentence"),
]


@functools.cache
def _agreement(locale: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(``1`` before a plural noun, another number before a singular one) of ``locale``'s
    nouns, each one pattern (the lint reads thousands of texts per game)."""
    nouns = _NOUNS.get(locale)
    if not nouns:
        return None, None
    ones = "|".join(one for one, _many in nouns)
    manys = "|".join(many for _one, many in nouns)
    return (
        re.compile(rf"(?<![\d.,])1\s+({manys})\b"),
        re.compile(rf"(?<![\d.,-])(?:0|[2-9]|\d\d+)\s+({ones})\b"),
    )


@functools.cache
def _catalogue_keys() -> frozenset[str]:
    return frozenset(keys("en"))


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
    catalogue_keys = _catalogue_keys()
    found += [f"a catalogue key ({k})" for k in _KEYLIKE.findall(plain) if k in catalogue_keys]
    doubled = _DOUBLED.search(plain)
    if doubled and not doubled.group(1).isdigit() and doubled.group(1).lower() not in _IDIOMS:
        found.append(f"a word said twice ({doubled.group(0)!r})")
    one_many, number_one = _agreement(locale)
    if one_many is not None and number_one is not None:
        bare = plain.replace("**", "")
        found += [f"'1 {m.group(1)}'" for m in one_many.finditer(bare)]
        found += [f"a number with '{m.group(1)}'" for m in number_one.finditer(bare)]
    if locale == "en" and re.search(r"\ba [aeiou8]", plain, re.IGNORECASE):
        found.append("'a' before a vowel")
    found += [why for pattern, why in _REVIEW_2 if pattern.search(plain)]
    if locale in ("de", "hu") and _LETTERS.search(plain):
        found.append("an English colour initial or card letter")
    initials = _foreign_initials(locale)
    if initials is not None and initials.search(plain):
        found.append("an English seat initial")
    if locale == "de" and kind != "label" and _LOWER_AFTER_COLON.search(plain):
        found.append("lower case after a colon before a whole sentence")
    if locale == "hu" and kind not in ("label", "caption") and _HU_CARD_CAPITAL.search(plain):
        found.append("a Hungarian card name in upper case inside a sentence")
    if locale == "hu" and _HELY.search(plain):
        found.append("'hely' (a ranking place) for a seat")
    ends = r"[.!?…)*:]$" if kind in _COLON_KINDS else r"[.!?…)*]$"
    if kind in SENTENCE_KINDS and plain and not re.search(ends, plain.rstrip()):
        found.append("a sentence without its full stop")
    for pattern, why in _FUSED:
        if pattern.search(plain):
            found.append(why)
    if locale != "en":
        english = [w for w in _ENGLISH.findall(plain) if w not in _OWN_WORDS.get(locale, ())]
        if english:
            found.append(f"English words in {locale}: {english}")
    return found


@dataclass
class Collected:
    """Every text a player could read, per locale and kind, with the names at the table."""

    texts: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    #: The renderer's caches were emptied for these texts: a cached layer (a board's fields
    #: and letters, a card face) drawn before, by another test, is drawn again, its texts seen.
    drawn_afresh: bool = False

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
    "dog-braendi": ("dog", 4, {"ruleset": "braendi"}),
    "dog-6": ("dog", 6, {}),
    "tock-2v2v2": ("tock", 6, {"game_type": "2v2v2"}),
    "carcassonne": ("carcassonne", 2, {}),
    "carcassonne-expansions": (
        "carcassonne",
        3,
        {"river": True, "inns_cathedrals": "full", "traders_builders": "full", "farms": "first"},
    ),
}
PERSON = "anna"


def _captions(
    collected: Collected, locale: str, render: Callable[..., bytes], *args: Any, **kwargs: Any
) -> None:
    """Draw one image and add every text drawn on it (watched as the legibility test watches
    them, :func:`tests.renderer.pixels.recorded_texts`) to ``collected`` as captions."""
    from tests.renderer.pixels import recorded_texts

    with recorded_texts() as drawn:
        render(*args, locale=locale, **kwargs)
    for text, _size in drawn:
        collected.add(locale, "caption", text)


def _draw_update(
    collected: Collected, table: Any, update: Any, locales: Sequence[str] = LOCALES
) -> None:
    """The image the Discord front end posts with ``update``, in ``locales``: the board (a
    tile to place: the board with its legal cells numbered)."""
    import renderer
    from bot.discord_ui.publisher import drawable
    from bot.discord_ui.texts import seat_names
    from bot.discord_ui.tile_words import public_placements

    if not drawable(update):
        return
    view = update.view
    placements = (
        public_placements(view) if table.game == "carcassonne" and not update.finished else {}
    )
    for locale in locales:
        names = seat_names(table, view.get("seats") or [], locale)
        if placements:
            _captions(collected, locale, renderer.render_placements, view, placements, names=names)
        else:
            _captions(collected, locale, renderer.render_board, view, names=names)


def _draw_private(collected: Collected, info: Any, locales: Sequence[str]) -> None:
    """The images of a person's prompt, in ``locales``: the hand (race games), the placed
    tile with its figure spots lettered (Carcassonne, the figure step)."""
    import renderer
    from bot.console.play import placements_of

    view = info.view or {}
    game = info.table.game
    for locale in locales:
        if game != "carcassonne" and view.get("hand"):
            hand = [str(card) for card in view["hand"]]
            _captions(collected, locale, renderer.render_hand, game, hand)
            _draw_race_choices(collected, info, locale)
        elif game == "carcassonne" and view.get("phase") == "place" and info.legal_moves:
            # The tile prompt's image, in Discord and in the console (the public board with
            # the same cells numbered is drawn by _draw_update).
            placements = placements_of(info.legal_moves)
            _captions(collected, locale, renderer.render_placements, view, placements)
        elif game == "carcassonne" and view.get("phase") == "figure":
            x, y = (view.get("last_tiles") or {})[str(view.get("viewer"))]
            placed = next(b for b in view["board"] if b["x"] == x and b["y"] == y)
            spots = list(dict.fromkeys(m.partition(":")[2] for m in info.legal_moves if ":" in m))
            args = (view, x, y, placed["rot"], placed["tile"], spots)
            _captions(collected, locale, renderer.render_figure_spots, *args)


def _draw_race_choices(collected: Collected, info: Any, locale: str) -> None:
    """The choice image of the first card the person can play (#36): its options numbered
    where they land, its legend."""
    from bot.discord_ui.race_prompts import choices
    from renderer.race_choices import render_race_choices

    view = info.view or {}
    if not info.to_act or view.get("phase") != "play":
        return
    playable = [str(card) for card in view["hand"] if choices(info, str(card))]
    if not playable:
        return
    moves = choices(info, playable[0])
    _captions(collected, locale, render_race_choices, view, moves)


async def _collect_results(collected: Collected, service: Any, table_id: int, draw: bool) -> None:
    """The results post of a finished table and (``draw``) its results image, in every
    language. The animated summary is left out: its frames are boards already drawn."""
    from bot.discord_ui.results_texts import result_names, results_post

    result = await service.result(table_id)
    if result is None:
        return
    changes = await service.rating_changes(table_id)
    for locale in LOCALES:
        for line in results_post(result, locale, changes).splitlines():
            collected.add(locale, "results", line)  # a title, standings, counts: no sentences
        if draw:
            import renderer

            names = result_names(result, locale)
            _captions(collected, locale, renderer.render_results, result.to_json(), names=names)


async def play_and_collect(
    family: str,
    seed: int,
    collected: Collected,
    person_turns: int | None = None,
    *,
    draw: int = 0,
) -> None:
    """Play one seeded game of ``family`` (one scripted person, bots in the other seats) and
    add what its players could read, in every language, to ``collected``.

    ``person_turns`` stops the game after that many of the person's decisions (the openings
    of many games); ``None`` plays it to the end (scores, winners, the results, the lobby
    afterwards). ``draw`` also draws the images the players see at every ``draw``-th of the
    person's decisions (the board, the person's hand or figure spots; in one language each
    time, taking turns) and at the end (the final board and the results, in every language)
    and collects their texts: drawing costs more than playing, so the lint draws a share.
    """
    from bot.bots.choosers import random_chooser
    from bot.discord_ui.publisher import turn_line
    from bot.discord_ui.texts import lobby_text
    from bot.model.table import TableError
    from bot.service import TableService
    from bot.storage import open_storage

    game, players, options = FAMILIES[family]
    use_game_terms(game)  # as the front ends say a table's messages: in its game's words
    storage = await open_storage(":memory:")
    service = TableService(storage, choose_bot_move=random_chooser, snapshot_every=0)
    rng = random.Random(seed)
    if draw and not collected.drawn_afresh:
        import renderer

        # Cached layers hold text too. Once is enough: what is cached from now on was drawn,
        # and read, for this collection.
        renderer.clear_caches()
        collected.drawn_afresh = True
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

        def take(effects: Any, drawing: Sequence[str] = ()) -> None:
            delivery = [*updates, *effects.public]
            for update in delivery:
                for locale in LOCALES:
                    collected.add(locale, "public", update.message.text(locale))
            if delivery:
                # Whose turn it is follows the newest update of a delivery only (the publisher
                # says it once, under the board the buttons are on).
                for locale in LOCALES:
                    collected.add(locale, "turn", turn_line(effects.table, delivery[-1], locale)[0])
            if draw and effects.table.phase != "playing":
                drawing = LOCALES  # the final board
            if drawing:
                # The board the person sees next: the newest of this delivery.
                boards = [u for u in effects.public if u.view is not None]
                if boards:
                    _draw_update(collected, effects.table, boards[-1], drawing)
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
            drawing: Sequence[str] = ()
            if draw and turn % draw == 0:
                drawing = (LOCALES[turn // draw % len(LOCALES)],)
                _draw_private(collected, info, drawing)
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
            take(await service.act(table_id, 100, move, info.table.version), drawing)
        final = await service.get(table_id)
        for locale in LOCALES:
            collected.add(locale, "lobby", lobby_text(final, locale))
        if final.phase == "finished":
            await _collect_results(collected, service, table_id, bool(draw))
    finally:
        await storage.close()


class _RecordingConsole(Console):
    """A terminal that keeps what ``poeppel play`` prints (without laying it out: that takes
    most of a console game's time), one text per printed line or table cell, by kind: a dim
    line is a status line (pawns, scores, tiles left, an image's path), the answer to ``log``
    is ``log``, other lines are sentences, the cells of the moves table labels.

    Left out is what is shown in notation or as a command by design, for the player to type:
    the moves table's notation column (the console takes typed notation, so it shows each
    move's notation beside its meaning) and the ``poeppel play --resume`` command a stopped
    game is continued with. Typed input is never printed back.
    """

    def __init__(self, collected: Collected, locale: str) -> None:
        super().__init__(file=io.StringIO(), width=120, highlight=False, color_system=None)
        self.lines: list[str] = []  # everything printed, for a failure's message
        self.collected = collected
        self.locale = locale
        self.rows = 0  # the moves offered by the last table printed
        self.asked = False  # a moves table was printed since the last answer
        self.logging = False  # the person typed log: the moves so far are printed
        from bot.console.play import poeppel_command

        self.command = poeppel_command()

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        for thing in objects:
            if isinstance(thing, Table):
                self._table(thing)
            elif isinstance(thing, str):
                markup = kwargs.get("markup") is not False
                plain = Text.from_markup(thing).plain if markup else thing
                kind = "status" if thing.startswith("[dim]") else "console"
                for line in plain.splitlines():
                    self.lines.append(line)
                    line = line.strip()
                    if not line.startswith(self.command):
                        self.collected.add(self.locale, "log" if self.logging else kind, line)
            else:
                raise AssertionError(f"the console printed a {type(thing).__name__}")

    def _table(self, table: Table) -> None:
        meaning = table.columns[1]
        self.collected.add(self.locale, "label", str(meaning.header))
        self.collected.add(self.locale, "label", str(table.columns[2].header))
        for cell in meaning.cells:
            self.collected.add(self.locale, "label", Text.from_markup(str(cell)).plain)
        self.rows = table.row_count
        self.asked = True
        self.logging = False


async def play_console_and_collect(
    family: str,
    seed: int,
    locale: str,
    collected: Collected,
    person_turns: int | None = None,
    *,
    people: int = 1,
    saved: bool = False,
) -> None:
    """Play one seeded game of ``family`` in ``poeppel play`` (in this process, its terminal
    recorded, scripted answers typed) in ``locale`` and add what it prints to ``collected``.

    The scripted person answers by number, now and then with a number out of range, a move
    that is no move, or ``log``; stops with ``q`` after ``person_turns`` decisions (``None``:
    plays to the end). ``people`` seats take turns at the keyboard (hot seat), the others are
    easy bots. ``saved`` keeps the table in an SQLite file and, after the stop, continues it
    with ``--resume`` for a few decisions more.
    """
    from unittest import mock

    from bot.bots import choosers as bots
    from bot.console import play as console

    game, players, options = FAMILIES[family]
    rng = random.Random(seed)
    answered = [0]

    def ask(terminal: _RecordingConsole, limit: int | None) -> Callable[[str], str]:
        def answer(prompt: str) -> str:
            terminal.collected.add(locale, "prompt", prompt.strip())
            if not terminal.asked:
                return ""  # "press Enter": the keyboard passes to the next seat
            terminal.asked = False
            answered[0] += 1
            turn = answered[0]
            if turn > (3000 if limit is None else limit):
                return "q"
            if turn == 2:
                terminal.logging = True
                return "log"
            if turn % 9 == 4:
                return str(terminal.rows + 1)  # a number that is not on the list
            if turn % 11 == 6:
                return "nonsense"
            return str(rng.randint(1, max(1, terminal.rows)))

        return answer

    def arguments(db: str, resume: int | None = None) -> argparse.Namespace:
        return argparse.Namespace(
            game=None if resume is not None else game,
            options=[f"{name}={value}" for name, value in options.items()],
            players=players,
            bots=players - people,
            bot_level="easy",
            bot_time=0.0,
            seed=seed,
            db=db,
            out=None,
            open=False,
            no_images=True,  # the images' texts are collected by play_and_collect(draw=True)
            resume=resume,
            load=None,
            quiet=False,
            lang=locale,
        )

    # The easy engine bot would think for each move; the texts are the same with a random
    # one, which keeps the lint fast.
    with (
        mock.patch.object(bots, "engine_chooser", return_value=bots.random_chooser),
        tempfile.TemporaryDirectory() as folder,
    ):
        db = str(Path(folder) / "play.sqlite3") if saved else ":memory:"
        terminal = _RecordingConsole(collected, locale)
        code = await console._play(arguments(db), terminal, ask(terminal, person_turns))
        assert code == 0, "\n".join(terminal.lines[-20:])
        if saved and person_turns is not None:
            limit = answered[0] + 3
            resumed = await console._play(arguments(db, resume=1), terminal, ask(terminal, limit))
            assert resumed == 0, "\n".join(terminal.lines[-20:])
