"""``poeppel play``: a table in this terminal, through the real table service and SQLite.

Human seats take turns at the keyboard (hot seat: with several people, a seat's hand is shown
only after "seat N, press Enter"), bots play themselves, legal moves are listed numbered and
may be typed by number or in notation. Each board is written as a PNG to ``--out`` when the
renderer can draw it, and ``--open`` shows it with the system viewer.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bot.effects import Effects, PublicUpdate
from bot.table_model import BOT_LEVELS, Phase, TableError, TableRecord
from i18n import t
from i18n.history import history_line

GAMES = ("tock", "dog", "carcassonne")
#: The guild and channel ids of terminal tables (a Discord id is never this small).
LOCAL_GUILD = 0
LOCAL_CHANNEL = 0
DEFAULT_DB = "poeppel-play.sqlite3"
#: The terminal speaks English (its other words are English too).
CONSOLE_LOCALE = "en"


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``poeppel play`` to ``parser``."""
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
    parser.add_argument("--resume", type=int, default=None, metavar="TABLE_ID")
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def run_play(args: argparse.Namespace) -> int:
    """Run ``poeppel play``; return the process exit code."""
    console = Console(highlight=False)
    try:
        return asyncio.run(_play(args, console, input))
    except KeyboardInterrupt:
        console.print("\n[yellow]Stopped.[/] The game is saved; continue it with --resume.")
        return 130


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
        self.render: Callable[[Mapping[str, Any]], bytes] | None = None
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

    def show(self, table_id: int, update: PublicUpdate) -> Path | None:
        if self.render is None or self.out is None or update.view is None:
            return None
        try:
            png = self.render(update.view)
        except Exception as error:  # a drawing bug must not end the game
            self.console.print(f"[red]Could not draw the board:[/] {error}")
            return None
        path = self.out / f"table{table_id}-v{update.version:05d}.png"
        path.write_bytes(png)
        if self.open_them and self.viewer:
            subprocess.Popen(
                [self.viewer, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        return path


async def _play(args: argparse.Namespace, console: Console, ask: Callable[[str], str]) -> int:
    from bot.bots import engine_chooser
    from bot.storage import open_storage
    from bot.tables import TableService

    if args.resume is None and args.game is None:
        console.print("[red]Say which game to play:[/] tock, dog or carcassonne.")
        return 2
    db = args.db if args.db == ":memory:" else f"sqlite:///{args.db}"
    storage = await open_storage(db)
    service = TableService(
        storage, choose_bot_move=engine_chooser(args.bot_time), require_person=False
    )
    images = _Images(args.out, args.open, console, enabled=not args.no_images)
    if images.render is None and not args.quiet and not args.no_images:
        console.print("[dim]No board images: the renderer cannot draw boards yet.[/]")
    try:
        if args.resume is not None:
            try:
                table = await service.get(args.resume)
            except TableError as error:
                console.print(f"[red]{error}[/] (looked in {args.db})")
                return 1
            if table.phase != Phase.PLAYING:
                console.print(f"[red]Table {table.id} is {table.phase}; nothing to resume.[/]")
                return 1
            console.print(f"Resuming table {table.id} ({table.game}).")
            table_id = table.id
        else:
            created, effects = await _new_table(service, args, console)
            if created is None:
                return 2
            table_id = created.id
            _show(console, images, effects, args.quiet)
        return await _loop(service, table_id, console, images, ask, args.quiet)
    finally:
        await storage.close()


async def _new_table(
    service: Any, args: argparse.Namespace, console: Console
) -> tuple[TableRecord | None, Effects | None]:
    module = service.load_game(args.game)
    players = args.players or (4 if 4 in module.PLAYER_COUNTS else min(module.PLAYER_COUNTS))
    bots = players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= players:
        console.print(f"[red]--bots must be between 0 and {players}.[/]")
        return None, None
    try:
        options = parse_option_values(args.options, module.OPTIONS)
    except ValueError as error:
        console.print(f"[red]{error}[/]")
        return None, None
    humans = players - bots
    try:
        created = await service.create(
            LOCAL_GUILD,
            LOCAL_CHANNEL,
            args.game,
            1,
            "Player 1",
            players=players,
            options=options,
            seed=args.seed,
            seat_host=humans > 0,
        )
        table_id = created.table.id
        for person in range(2, humans + 1):
            await service.join(table_id, person, f"Player {person}")
        for _ in range(bots):
            await service.add_bot(table_id, 1, args.bot_level)
        effects = await service.start_game(table_id, 1)
    except TableError as error:
        console.print(f"[red]{error}[/]")
        return None, None
    console.print(
        f"Table [bold]{table_id}[/] ({args.game}, seed {effects.table.seed}) is saved in "
        f"{args.db}; continue it later with --resume {table_id}."
    )
    return effects.table, effects


def _show(console: Console, images: _Images, effects: Effects | None, quiet: bool) -> None:
    if effects is None:
        return
    for update in effects.public:
        path = images.show(effects.table.id, update)
        if quiet and not update.finished:
            continue
        style = "bold green" if update.finished else ("yellow" if update.actor is None else "")
        line = f"[{style}]{update.text}[/]" if style else update.text
        if path is not None:
            line += f"  [dim]{path}[/]"
        console.print(line, markup=True)


def _seat_label(table: TableRecord, seat: int) -> str:
    for s in table.seats:
        if s.index == seat:
            return f"{s.name} (seat {seat})"
    return f"seat {seat}"


def _summary(view: Mapping[str, Any]) -> str:
    """A one-line public state for the terminal."""
    parts = []
    if "scores" in view:
        parts.append("scores " + " ".join(str(s) for s in view["scores"]))
    if "pawns" in view:
        pawns = view["pawns"]
        parts.append("pawns " + "  ".join(f"{k}:{','.join(v)}" for k, v in pawns.items()))
    if "tiles_left" in view:
        parts.append(f"tiles left {view['tiles_left']}")
    if view.get("current_tile"):
        parts.append(f"tile {view['current_tile']}")
    return " | ".join(parts)


async def _loop(
    service: Any,
    table_id: int,
    console: Console,
    images: _Images,
    ask: Callable[[str], str],
    quiet: bool,
) -> int:
    """Ask each person for their decisions until the game ends."""
    last_person: int | None = None
    while True:
        table = await service.get(table_id)
        if table.phase != Phase.PLAYING:
            return _finish(console, table)
        people = [s for s in table.seats if s.is_human]
        owing = None
        for seat in people:
            assert seat.user_id is not None
            info = await service.private_info(table_id, seat.user_id)
            if info.to_act:
                owing = (seat, info)
                break
        if owing is None:
            console.print("[red]Nobody can move; the table is stuck.[/]")
            return 1
        seat, info = owing
        assert seat.user_id is not None
        if len(people) > 1 and last_person != seat.user_id:
            try:
                ask(f"\n{_seat_label(table, seat.index)}, press Enter (others look away) ")
            except EOFError:
                return _saved(console, table)
        last_person = seat.user_id
        _prompt_table(console, table, info)
        try:
            answer = ask("Your move (number or notation, log, q to stop): ").strip()
        except EOFError:
            return _saved(console, table)
        if answer.lower() in ("q", "quit", "exit"):
            return _saved(console, table)
        if answer.lower() == "log":
            await _print_history(console, service, table_id, seat.user_id)
            continue
        move = typed_move(answer, info.legal_moves)
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(info.legal_moves):
                console.print(f"[red]Choose a number from 1 to {len(info.legal_moves)}.[/]")
                continue
            move = info.legal_moves[number - 1]
        try:
            effects = await service.act(table_id, seat.user_id, move, info.table.version)
        except TableError as error:
            console.print(f"[red]{error}[/]")
            continue
        _show(console, images, effects, quiet)


def typed_move(text: str, legal: Sequence[str]) -> str:
    """A move typed in notation, as the person meant it: a Jack swap written the other way
    round (``J:r40<>r30``) is the legal swap of the same two pawns. The engine reads a swap
    only as written (N-5.2: the moved colour's pawn first); a person need not know that."""
    card, colon, action = text.partition(":")
    first, swap, second = action.partition("<>")
    if colon and swap and text not in legal:
        flipped = f"{card}:{second}<>{first}"
        if flipped in legal:
            return flipped
    return text


async def _print_history(console: Console, service: Any, table_id: int, user_id: int) -> None:
    """The table's moves as this seat may see them (the service keeps others' picks secret)."""
    table, history = await service.history(table_id, user_id)
    console.print(t("desk.log_title", CONSOLE_LOCALE, table=table.id), markup=False)
    for entry in history:
        who = _seat_label(table, entry.seat) if entry.seat is not None else ""
        console.print(history_line(entry, who, CONSOLE_LOCALE), markup=False)
    if not history:
        console.print(t("desk.log_empty", CONSOLE_LOCALE), markup=False)


def _prompt_table(console: Console, table: TableRecord, info: Any) -> None:
    view = info.view or {}
    console.print(f"\n[bold]{_seat_label(table, info.seat)}[/], your decision.")
    summary = _summary(view)
    if summary:
        console.print(f"[dim]{summary}[/]")
    if view.get("hand") is not None:
        console.print("Your hand: [bold]" + " ".join(str(c) for c in view["hand"]) + "[/]")
    moves = Table(show_header=True, header_style="bold", box=None)
    moves.add_column("#", justify="right")
    moves.add_column("move")
    moves.add_column("meaning", style="dim")
    for number, text in enumerate(info.legal_moves, start=1):
        label = info.labels[number - 1] if number <= len(info.labels) else ""
        moves.add_row(str(number), text, "" if label == text else label)
    console.print(moves)


def _finish(console: Console, table: TableRecord) -> int:
    if table.phase == Phase.FINISHED:
        names = ", ".join(_seat_label(table, w) for w in table.winners)
        console.print(f"[bold green]Game over.[/] Winner: {names}.")
        return 0
    console.print(f"The table is {table.phase}.")
    return 1


def _saved(console: Console, table: TableRecord) -> int:
    console.print(f"\nSaved. Continue with: poeppel play --resume {table.id}")
    return 0
