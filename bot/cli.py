"""The ``poeppel`` command line: ``run`` the Discord bot, ``play`` locally, ``sync-commands``,
``rebuild-ratings``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

NO_TOKEN_MESSAGE = (
    "poeppel: DISCORD_TOKEN is not set.\n"
    "Put your bot token in the environment or in a .env file (see .env.example):\n"
    "    DISCORD_TOKEN=... poeppel run\n"
    "To play without Discord, run a table in this terminal instead:\n"
    "    poeppel play tock --players 4 --bots 3"
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``poeppel`` command."""
    parser = argparse.ArgumentParser(prog="poeppel", description="Tock, Dog and Carcassonne.")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="connect to Discord and serve tables")
    run.add_argument("--shard-count", type=int, default=None, help="total shards (all processes)")
    run.add_argument("--shard-ids", default=None, help="the shards this process owns, e.g. 0-3")
    run.add_argument(
        "--sync-commands", action="store_true", help="also sync slash commands on start"
    )

    sub.add_parser("sync-commands", help="register the slash commands with Discord and exit")

    rebuild = sub.add_parser(
        "rebuild-ratings", help="recompute every rating from the stored results and exit"
    )
    from bot.console.ratings_cli import add_rebuild_arguments

    add_rebuild_arguments(rebuild)

    play = sub.add_parser("play", help="play a table in this terminal")
    try:
        from bot.console.play import add_play_arguments
    except ImportError:  # the terminal front end is optional for `run` and `sync-commands`
        play.add_argument("game", choices=("tock", "dog", "carcassonne"))
    else:
        add_play_arguments(play)
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse the command line.

    ``poeppel play`` takes game options as ``NAME=VALUE`` words anywhere on the line, also
    after ``--players 4``; argparse alone would refuse those once an optional came between.
    """
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command == "play" and all("=" in e and not e.startswith("-") for e in extra):
            args.options = [*getattr(args, "options", []), *extra]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``poeppel`` console script."""
    args = parse_args(argv)
    if args.command == "play":
        from bot.console.play import run_play

        return run_play(args)
    if args.command == "rebuild-ratings":
        from bot.console.ratings_cli import run_rebuild

        return run_rebuild(args)

    from bot.settings import load_settings

    settings = load_settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return 2
    from bot.discord_ui.app import run_bot, sync_commands

    if args.command == "sync-commands":
        return sync_commands(settings)
    side = None
    if settings.web_port is not None:
        # The live board (#33) is served by this process beside Discord.
        from bot.web.server import serve_web

        def side(service: Any, deliver: Any) -> Any:
            return serve_web(service, settings, deliver)

    return run_bot(
        settings,
        shard_count=args.shard_count,
        shard_ids=args.shard_ids,
        sync=args.sync_commands,
        side=side,
    )


if __name__ == "__main__":
    raise SystemExit(main())
