"""``poeppel play``: a table in this terminal, through the real table service and SQLite.

Human seats take turns at the keyboard (hot seat: with several people, a seat's hand is shown
only after "seat N, press Enter"), bots play themselves, legal moves are listed numbered and
may be typed by number or in notation. Each board is written as a PNG to ``--out`` when the
renderer can draw it, and ``--open`` shows it with the system viewer.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bot.model.effects import Effects, PublicUpdate, digest_view, newest_board
from bot.model.table import BOT_LEVELS, Phase, TableError, TableRecord
from engine.carcassonne.effects import effects_of_view
from i18n.catalog import LOCALES, name_phrase, normalise_locale, t, use_game_terms
from i18n.events import card_word, colour_word, tile_words
from i18n.history import history_line
from i18n.message import list_words, say
from i18n.placement_effects import effect_words

GAMES = ("tock", "dog", "carcassonne")
#: The guild and channel ids of terminal tables (a Discord id is never this small).
LOCAL_GUILD = 0
LOCAL_CHANNEL = 0
DEFAULT_DB = "poeppel-play.sqlite3"


def options_help() -> str:
    """Every game's options with their values and defaults, for ``poeppel play --help``."""
    from engine import get_game

    lines = ["game options (NAME=VALUE after the game):"]
    for game in GAMES:
        lines.append(f"  {game}:")
        for spec in get_game(game).OPTIONS:
            if spec.choices is not None:
                values = "|".join(str(c).lower() for c in spec.choices)
            elif isinstance(spec.default, bool):
                values = "true|false"
            else:
                values = type(spec.default).__name__
            default = str(spec.default).lower() if isinstance(spec.default, bool) else spec.default
            about = f" — {spec.description}" if spec.description else ""
            lines.append(f"    {spec.name}={values} (default {default}){about}")
    return "\n".join(lines)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``poeppel play`` to ``parser``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = options_help()
    parser.add_argument("game", nargs="?", choices=GAMES, help="the game to play")
    parser.add_argument(
        "options",
        nargs="*",
        metavar="NAME=VALUE",
        help="game options, e.g. game_type=2v2 seven=single (tock), ruleset=braendi (dog), "
        "farms=second river=true (carcassonne)",
    )
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument(
        "--bots", type=int, default=None, help="how many seats bots play (default: all but one)"
    )
    parser.add_argument("--bot-level", choices=BOT_LEVELS, default="normal", help="bot strength")
    parser.add_argument(
        "--bot-time", type=float, default=0.5, help="seconds a bot may think per move"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffle")
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=f"SQLite file or :memory: (default {DEFAULT_DB})"
    )
    parser.add_argument("--out", default=None, help="folder for the board images")
    parser.add_argument("--open", action="store_true", help="show each board image")
    parser.add_argument("--no-images", action="store_true", help="do not draw the boards")
    parser.add_argument(
        "--resume",
        type=int,
        default=None,
        metavar="TABLE_ID",
        help="continue a saved table (not with --db :memory:, which keeps nothing)",
    )
    parser.add_argument(
        "--load", default=None, metavar="FILE", help="replay a downloaded game record"
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument(
        "--notation", action="store_true", help="with --load: the moves in notation, not words"
    )
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default=None,
        help="language of the messages (default: from LANG, else English)",
    )


def run_play(args: argparse.Namespace) -> int:
    """Run ``poeppel play``; return the process exit code.

    The first Ctrl-C stops at once, whatever the program is doing (waiting at a prompt, a bot
    thinking, a board being drawn): every move made is committed already, and the message
    says the command that continues the game.
    """
    console = Console(highlight=False)
    playing: dict[str, int] = {}

    def stop_now() -> None:
        # In the handler itself, not through KeyboardInterrupt: asyncio would turn that into
        # a cancellation that a blocking input() notices only once a line is typed, and its
        # clean-up waits for worker threads (the storage's, a bot's search).
        locale = terminal_locale(args)
        console.print()
        if "table" in playing:
            _saved_message(console, playing["table"], locale, args.db)
        else:
            console.print(escape(t("console.stopped", locale)))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)

    async def main() -> int:
        # Through the loop's wakeup pipe: a Ctrl-C reaches the loop whichever thread the
        # kernel hands the signal to (the prompt waits in a thread of its own).
        if threading.current_thread() is threading.main_thread():
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop_now)
        return await _play(args, console, input, playing)

    return asyncio.run(main())


async def _ask(ask: Callable[[str], str], prompt: str) -> str:
    """Wait for a line in a thread, so the event loop stays free to take a Ctrl-C."""
    return await asyncio.to_thread(ask, prompt)


def parse_option_values(pairs: Sequence[str], specs: Sequence[Any]) -> dict[str, Any]:
    """Turn ``NAME=VALUE`` strings into typed options using the game's option specs."""
    by_name = {spec.name: spec for spec in specs}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep:
            raise ValueError(f"game option {pair!r} must look like NAME=VALUE")
        spec = by_name.get(name)
        if spec is None or isinstance(spec.default, str):
            options[name] = raw  # unknown names are reported by the service
        elif isinstance(spec.default, bool):
            if raw.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise ValueError(f"option {name} must be true or false, got {raw!r}")
            options[name] = raw.lower() in ("true", "yes", "on", "1")
        elif isinstance(spec.default, int):
            try:
                options[name] = int(raw)
            except ValueError:
                raise ValueError(f"option {name} must be a whole number, got {raw!r}") from None
        else:
            options[name] = raw
    return options


class _Images:
    """Writes each public view as a PNG when ``renderer.render_board`` exists."""

    def __init__(
        self, out: str | None, open_them: bool, console: Console, *, enabled: bool = True
    ) -> None:
        self.console = console
        self.open_them = open_them
        self.render: Callable[..., bytes] | None = None
        self.out: Path | None = None
        if enabled:
            try:
                renderer = importlib.import_module("renderer")
                self.render = getattr(renderer, "render_board", None)
            except ImportError:  # the renderer is optional for terminal play
                self.render = None
        if self.render is not None:
            self.out = Path(out or "poeppel-boards")
            self.out.mkdir(parents=True, exist_ok=True)
        self.viewer = shutil.which("xdg-open") or shutil.which("open")

    def show(
        self,
        table_id: int,
        update: PublicUpdate,
        names: Sequence[str] | None = None,
        locale: str = "en",
    ) -> Path | None:
        """Write the board of ``update`` as Discord draws it: the players' ``names`` (one per
        seat of the view) and the words of ``locale``."""
        if self.render is None or self.out is None or update.view is None:
            return None
        try:
            png = self.render(update.view, names=names, locale=locale)
        except Exception as error:  # a drawing bug must not end the game
            said = t("console.draw_failed", locale, error=str(error))
            self.console.print(f"[red]{escape(said)}[/]")
            return None
        path = self.out / f"table{table_id}-v{update.version:05d}.png"
        path.write_bytes(png)
        self._open(path)
        return path

    def _open(self, path: Path) -> None:
        if self.open_them and self.viewer:
            subprocess.Popen(
                [self.viewer, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )

    def choices(
        self,
        table_id: int,
        view: Mapping[str, Any],
        legal: Sequence[str],
        locale: str,
        names: Sequence[str] | None = None,
    ) -> list[Path]:
        """The image of the choices, as the Discord prompts show them. Carcassonne: the board
        with the legal cells numbered and their turns (placing), or the placed tile with its
        figure spots lettered (the figure step). Tock and Dog: the board from the player's
        seat with each move's number (as the list numbers it) where the move lands."""
        if self.render is None or self.out is None:
            return []
        try:
            renderer: Any = importlib.import_module("renderer")
            if view.get("game") in ("tock", "dog"):
                moves = [m for m in legal if m != "F" and not m.endswith(":D")]
                if not moves or view.get("phase") == "exchange":
                    return []
                choices_module: Any = importlib.import_module("renderer.race_choices")
                png = choices_module.render_race_choices(
                    view, list(legal), names=list(names or []) or None, locale=locale
                )
                path = self.out / f"table{table_id}-choices.png"
            elif view.get("game") != "carcassonne":
                return []
            elif view.get("phase") == "place":
                png = renderer.render_placements(view, placements_of(legal), locale=locale)
                path = self.out / f"table{table_id}-cells.png"
            elif view.get("phase") == "figure":
                x, y = (view.get("last_tiles") or {})[str(view.get("viewer"))]
                placed = next(b for b in view["board"] if b["x"] == x and b["y"] == y)
                spots = list(_spot_letters("carcassonne", legal))  # lettered A, B, … in order
                png = renderer.render_figure_spots(
                    view, x, y, placed["rot"], placed["tile"], spots, locale=locale
                )
                path = self.out / f"table{table_id}-spots.png"
            else:
                return []
        except Exception as error:  # a drawing bug must not end the game
            self.console.print(f"[red]{escape(str(error))}[/]")
            return []
        path.write_bytes(png)
        self._open(path)
        return [path]


def placements_of(legal: Sequence[str]) -> dict[tuple[int, int], list[int]]:
    """Carcassonne's legal placements ``x,y@rot`` as cell -> rotations."""
    cells: dict[tuple[int, int], list[int]] = {}
    for move in legal:
        cell, at, rot = move.partition("@")
        if at:
            x, _, y = cell.partition(",")
            cells.setdefault((int(x), int(y)), []).append(int(rot))
    return cells


async def _play(
    args: argparse.Namespace,
    console: Console,
    ask: Callable[[str], str],
    playing: dict[str, int] | None = None,
) -> int:
    from bot.bots.choosers import engine_chooser
    from bot.service import open_tables

    locale = terminal_locale(args)
    images = _Images(args.out, args.open, console, enabled=not args.no_images)
    if getattr(args, "load", None):
        from bot.console.record_play import play_record

        notation = bool(getattr(args, "notation", False))
        return play_record(args.load, console, images, args.quiet, locale, notation)
    if args.resume is None and args.game is None:
        console.print(f"[red]{escape(t('console.which_game', locale))}[/]")
        return 2
    if args.resume is not None and args.db == ":memory:":
        console.print(f"[red]{escape(t('console.resume_memory', locale))}[/]")
        return 2
    db = args.db if args.db == ":memory:" else f"sqlite:///{args.db}"
    chooser = engine_chooser(args.bot_time)
    async with open_tables(db, choose_bot_move=chooser, require_person=False) as service:
        if images.render is None and not args.quiet and not args.no_images:
            console.print(f"[dim]{escape(t('console.no_images', locale))}[/]")
        if args.resume is not None:
            try:
                table = await service.get(args.resume)
            except TableError as error:
                said = t("console.looked_in", locale, error=error.text(locale), db=args.db)
                console.print(f"[red]{escape(said)}[/]")
                return 1
            if table.phase != Phase.PLAYING:
                said = t(f"error.phase.{table.phase}", locale)
                console.print(f"[red]{escape(said)}[/]")
                return 1
            said = t(
                "console.resuming", locale, table=table.id, game=t(f"game.{table.game}", locale)
            )
            console.print(escape(said))
            table_id = table.id
            use_game_terms(table.game)
        else:
            use_game_terms(args.game)
            created, effects = await _new_table(service, args, console)
            if created is None:
                return 2
            table_id = created.id
            _show(console, images, effects, args.quiet, terminal_locale(args))
        if playing is not None:
            playing["table"] = table_id
        return await _loop(
            service, table_id, console, images, ask, args.quiet, terminal_locale(args), args.db
        )


async def _new_table(
    service: Any, args: argparse.Namespace, console: Console
) -> tuple[TableRecord | None, Effects | None]:
    module = service.load_game(args.game)
    players = args.players or (4 if 4 in module.PLAYER_COUNTS else min(module.PLAYER_COUNTS))
    bots = players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= players:
        said = t("console.bots_range", terminal_locale(args), count=players)
        console.print(f"[red]{escape(said)}[/]")
        return None, None
    try:
        options = parse_option_values(args.options, module.OPTIONS)
    except ValueError as error:
        console.print(f"[red]{escape(str(error))}[/]")
        return None, None
    humans = players - bots
    try:
        created = await service.create(
            LOCAL_GUILD,
            LOCAL_CHANNEL,
            args.game,
            1,
            t("seat.player", terminal_locale(args), number=1),
            players=players,
            options=options,
            seed=args.seed,
            seat_host=humans > 0,
        )
        table_id = created.table.id
        for person in range(2, humans + 1):
            name = t("seat.player", terminal_locale(args), number=person)
            await service.join(table_id, person, name)
        for _ in range(bots):
            await service.add_bot(table_id, 1, args.bot_level)
        effects = await service.start_game(table_id, 1)
    except TableError as error:
        console.print(f"[red]{escape(error.text(terminal_locale(args)))}[/]")
        return None, None
    locale = terminal_locale(args)
    game = t(f"game.{args.game}", locale)
    if args.db == ":memory:":
        said = t("console.table_memory", locale, table=table_id, game=game, seed=effects.table.seed)
    else:
        said = t(
            "console.table_saved",
            locale,
            table=table_id,
            game=game,
            seed=effects.table.seed,
            db=args.db,
        )
    console.print(escape(said))
    you = [s for s in effects.table.seats if s.is_human]
    if len(you) == 1:
        console.print(
            escape(
                t("console.you_play", locale, who=_seat_label(effects.table, you[0].index, locale))
            )
        )
    return effects.table, effects


def terminal_locale(args: argparse.Namespace) -> str:
    """The language of ``poeppel play``: ``--lang``, else the terminal's ``LANG``."""
    if getattr(args, "lang", None):
        return str(args.lang)
    return normalise_locale(os.environ.get("LANG", "").split(".", 1)[0] or None)


#: The private updates the console says (a decision owed and a changed hand show in the
#: prompt itself).
PRIVATE_NEWS = frozenset({"received", "event"})


def _show(
    console: Console, images: _Images, effects: Effects | None, quiet: bool, locale: str
) -> None:
    if effects is None:
        return
    table = effects.table
    # The turn digest, as the thread has it: what happened since the person's last turn in
    # words, and one board drawing every move of it (numbered).
    if not quiet and len(effects.public) > 1:
        console.print(f"[dim]{escape(t('console.since_last_turn', locale))}[/]")
    for update in effects.public:
        if quiet and not update.finished:
            continue
        style = "bold green" if update.finished else ("yellow" if update.actor is None else "")
        said = escape(update.message.text(locale))
        console.print(f"[{style}]{said}[/]" if style else said, markup=True)
    newest, view = newest_board(effects.public), digest_view(effects.public)
    if newest is None or view is None:
        return
    names = [str(say(table.seat_label(s), locale)) for s in view.get("seats") or []]
    path = images.show(table.id, dataclasses.replace(newest, view=view), names, locale)
    if path is not None and not quiet:
        console.print(f"[dim]{path}[/]", markup=True)


def _seat_label(table: TableRecord, seat: int, locale: str = "en") -> str:
    """``anna (seat 1, Red)``: who sits where, in the words and colours of the board."""
    name = str(say(table.seat_label(seat), locale))
    position = sorted(s.index for s in table.seats).index(seat) + 1
    game = table.game
    said = t(
        "console.seat", locale, name=name, seat=position, colour=colour_word(seat, locale, game)
    )
    return name_phrase(str(said))  # "anna (…)" takes no article, "2. bot (…)" its number's


def status_words(view: Mapping[str, Any], table: TableRecord, locale: str) -> list[str]:
    """The public state in words, one line per seat (race) or scores and pile (Carcassonne)."""
    lines = []
    if "pawns" in view:
        for seat_text, locations in (view.get("pawns") or {}).items():
            seat = int(seat_text)
            kennel = sum(1 for loc in locations if str(loc).startswith("k"))
            home = sum(1 for loc in locations if str(loc).startswith("h"))
            track = len(locations) - kennel - home
            lines.append(
                t(
                    "console.pawns",
                    locale,
                    who=_seat_label(table, seat, locale),
                    kennel=kennel,
                    track=track,
                    home=home,
                )
            )
    elif "scores" in view:
        scores = [
            t("console.score", locale, who=str(say(table.seat_label(seat), locale)), count=points)
            for seat, points in zip(view.get("seats") or [], view["scores"], strict=False)
        ]
        lines.append(t("console.scores", locale, scores=list_words(scores, locale)))
        if view.get("tiles_left") is not None:
            lines.append(t("img.tiles_left", locale, count=int(view["tiles_left"])))
    return lines


def poeppel_command() -> str:
    """How to call ``poeppel`` from the current folder: the bare name when it is on PATH,
    else the script beside this interpreter (``.venv/bin/poeppel``), else ``python -m``."""
    if shutil.which("poeppel"):
        return "poeppel"
    script = Path(sys.executable).with_name("poeppel")
    if script.exists():
        try:
            return os.path.relpath(script)
        except ValueError:  # another drive (Windows)
            return str(script)
    return f"{sys.executable} -m bot.cli"


_CARD = r"(?:10|[2-9AJQKX])"
_LOC = r"(?:r\d+|h\d\.\d|k\d)"


def normalise_move(game: str, text: str, legal: Sequence[str]) -> str:
    """What a person typed, in the engine's strict notation when it can be read as one of
    ``legal``: any case, spaces for the separators, a swap's operands in either order
    (``8 r27 r35`` -> ``8:r27-r35``, ``j:R42<>r66`` -> ``J:r42<>r66``)."""
    typed = " ".join(text.split())
    if typed in legal:
        return typed
    by_fold = {move.casefold(): move for move in legal}
    for candidate in _spellings(game, typed):
        found = by_fold.get(candidate.casefold())
        if found is not None:
            return found
    return typed


def _spellings(game: str, typed: str) -> list[str]:
    if game == "carcassonne":
        parts = typed.split()
        if parts and "@" not in parts[0] and ":" not in parts[0] and parts[0] != "none":
            parts[0] = parts[0].upper()  # the tile id
        return [" ".join(parts), typed.replace(" ", "")]
    compact = re.sub(r"\s*([:<>=,-])\s*", r"\1", typed).replace("< >", "<>")
    candidates = [compact]
    words = typed.replace(":", " ").split()
    if len(words) >= 2 and re.fullmatch(_CARD + r"(?:=" + _CARD + ")?", words[0], re.I):
        rest = words[1:]
        if len(rest) == 2 and all(re.fullmatch(_LOC, w, re.I) for w in rest):
            candidates.append(f"{words[0]}:{rest[0]}-{rest[1]}")
            candidates.append(f"{words[0]}:{rest[0]}<>{rest[1]}")
        elif len(rest) == 1:
            candidates.append(f"{words[0]}:{rest[0]}")
    for candidate in list(candidates):
        card, sep, action = candidate.partition(":")
        if sep and "<>" in action:
            first, _, second = action.partition("<>")
            candidates.append(f"{card}:{second}<>{first}")
    return candidates


async def _loop(
    service: Any,
    table_id: int,
    console: Console,
    images: _Images,
    ask: Callable[[str], str],
    quiet: bool,
    locale: str = "en",
    db: str | None = None,
) -> int:
    """Ask each person for their decisions until the game ends."""
    last_person: int | None = None
    # What each person was told privately (the card their partner passed, their own pick's
    # events), said when that person has the keyboard: in a hot seat, never to another.
    news: dict[int, list[str]] = {}
    while True:
        table = await service.get(table_id)
        if table.phase != Phase.PLAYING:
            return _finish(console, table, locale)
        people = [s for s in table.seats if s.is_human]
        owing = None
        for seat in people:
            assert seat.user_id is not None
            info = await service.private_info(table_id, seat.user_id)
            if info.to_act:
                owing = (seat, info)
                break
        if owing is None:
            console.print(f"[red]{escape(t('console.stuck', locale))}[/]")
            return 1
        seat, info = owing
        assert seat.user_id is not None
        if len(people) > 1 and last_person != seat.user_id:
            # Hot seat: the last person's hand must not stay on the screen for the next one.
            console.clear()
            try:
                await _ask(
                    ask,
                    t("console.hand_over", locale, who=_seat_label(table, seat.index, locale))
                    + " ",
                )
            except EOFError:
                return _saved(console, table, locale, db)
        last_person = seat.user_id
        _prompt_table(console, table, info, locale, images, news.pop(seat.user_id, []))
        try:
            answer = (await _ask(ask, t("console.ask", locale) + " ")).strip()
        except EOFError:
            return _saved(console, table, locale, db)
        if answer.lower() in ("q", "quit", "exit"):
            return _saved(console, table, locale, db)
        if answer.lower().split() in (["log"], ["log", "notation"]):
            notation = answer.lower().split()[-1] == "notation"
            await _print_history(
                console, service, table_id, seat.user_id, locale, notation=notation
            )
            continue
        move = normalise_move(table.game, answer, info.legal_moves)
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(info.legal_moves):
                said = t("console.choose_number", locale, count=len(info.legal_moves))
                console.print(f"[red]{escape(said)}[/]")
                continue
            move = info.legal_moves[number - 1]
        try:
            effects = await service.act(table_id, seat.user_id, move, info.table.version)
        except TableError as error:
            console.print(f"[red]{escape(error.text(locale))}[/]")
            continue
        _show(console, images, effects, quiet, locale)
        for private in effects.private:
            if private.kind in PRIVATE_NEWS:
                news.setdefault(private.user_id, []).append(private.message.text(locale))


async def _print_history(
    console: Console,
    service: Any,
    table_id: int,
    user_id: int,
    locale: str,
    *,
    notation: bool = False,
) -> None:
    """The table's moves as this seat may see them (the service keeps others' picks secret),
    in words, or in notation when asked (``log notation``)."""
    table, history = await service.history(table_id, user_id, words=not notation)
    console.print(t("desk.log_title", locale, table=table.id), markup=False)
    for entry in history:
        who = _seat_label(table, entry.seat, locale) if entry.seat is not None else ""
        line = history_line(entry, who, locale, game=table.game, notation=notation)
        console.print(line, markup=False)
    if not history:
        console.print(t("desk.log_empty", locale), markup=False)


def _prompt_table(
    console: Console,
    table: TableRecord,
    info: Any,
    locale: str,
    images: _Images | None = None,
    news: Sequence[str] = (),
) -> None:
    view = info.view or {}
    who = _seat_label(table, info.seat, locale)
    console.print(f"\n[bold]{escape(t('console.your_decision', locale, who=who))}[/]")
    for said in news:  # what only this seat was told, under its name
        console.print(f"[cyan]{escape(said)}[/]")
    for line in status_words(view, table, locale):
        console.print(f"[dim]{escape(line)}[/]")
    if view.get("hand") is not None:
        cards = [str(say(card_word(str(c)), locale)) for c in view["hand"]]
        console.print(escape(t("console.hand", locale, cards=", ".join(cards))))
    if table.game == "carcassonne" and view.get("current_tile"):
        words = tile_words(str(view["current_tile"])).text(locale)
        console.print(escape(t("console.tile", locale, tile=words)))
    if images is not None and (table.game != "carcassonne" or view.get("current_tile")):
        # Beside the board: where each numbered choice lands (race), the cells (Carcassonne).
        names = [str(say(table.seat_label(s), locale)) for s in view.get("seats") or []]
        for path in images.choices(table.id, view, info.legal_moves, locale, names):
            console.print(f"[dim]{escape(t('console.image', locale, path=str(path)))}[/]")
    moves = Table(show_header=True, header_style="bold", box=None)
    moves.add_column("#", justify="right")
    moves.add_column(t("console.column.meaning", locale))
    moves.add_column(t("console.column.notation", locale), style="dim")
    cells = _cell_numbers(table.game, info.legal_moves)
    spots = _spot_letters(table.game, info.legal_moves)
    effects = effects_of_view(view) if cells else {}
    seat_names = {s.index: str(say(table.seat_label(s.index), locale)) for s in table.seats}
    for number, text in enumerate(info.legal_moves, start=1):
        label = info.labels[number - 1].text(locale) if number <= len(info.labels) else text
        cell, at, rot = text.partition("@")
        if at and cell in cells:  # the number the placement image shows for that cell
            turn = t(f"tile.turned.{int(rot) % 360}", locale)
            label = t("console.cell", locale, number=cells[cell], turn=turn)
            x, _, y = cell.partition(",")
            facts = effects.get((int(x), int(y), int(rot) % 360))
            said = effect_words(facts, info.seat, seat_names, locale) if facts else ""
            if said:  # what the placement does, as the board's menu says it (#36)
                label = t("console.cell_effect", locale, placement=label, effect=said)
        spot = text.partition(":")[2]
        if spot in spots:  # the letter the figure-spot image shows for that spot
            label = t("console.spot", locale, letter=spots[spot], label=label)
        moves.add_row(str(number), escape(label), escape(text))
    console.print(moves)


def _spot_letters(game: str, legal: Sequence[str]) -> dict[str, str]:
    """Carcassonne's figure spots, lettered in the order the figure-spot image letters them
    (:meth:`_Images.choices` draws the spots of ``legal`` in this order)."""
    if game != "carcassonne":
        return {}
    spots = list(dict.fromkeys(m.partition(":")[2] for m in legal if ":" in m))
    return {spot: chr(ord("A") + index) for index, spot in enumerate(spots)}


def _cell_numbers(game: str, legal: Sequence[str]) -> dict[str, int]:
    """``"x,y"`` -> the number of that cell on the placement image (Carcassonne)."""
    if game != "carcassonne":
        return {}
    try:
        from renderer.carcassonne.choices import placement_order
    except ImportError:  # no renderer: the cells are said by their place
        return {}
    order = placement_order(placements_of(legal))
    return {f"{x},{y}": number for number, (x, y) in enumerate(order, start=1)}


def _finish(console: Console, table: TableRecord, locale: str = "en") -> int:
    if table.phase == Phase.FINISHED:
        names = list_words([_seat_label(table, w, locale) for w in table.winners], locale)
        said = t("console.game_over", locale, names=names, count=len(table.winners))
        console.print(f"[bold green]{escape(said)}[/]")
        return 0
    console.print(escape(t(f"error.phase.{table.phase}", locale)))
    return 1


def _saved(console: Console, table: TableRecord, locale: str = "en", db: str | None = None) -> int:
    console.print()
    _saved_message(console, table.id, locale, db)
    return 0


def _saved_message(console: Console, table_id: int, locale: str, db: str | None) -> None:
    """Where the game is and the command that continues it (none for ``--db :memory:``)."""
    if db == ":memory:":
        console.print(escape(t("console.not_saved", locale)))
        return
    command = f"{poeppel_command()} play --resume {table_id}"
    if db is not None and db != DEFAULT_DB:
        command += f" --db {db}"
    console.print(escape(t("console.saved", locale, table=table_id, command=command)))
