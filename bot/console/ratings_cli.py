"""``poeppel rebuild-ratings``: recompute every rating from the stored results."""

from __future__ import annotations

import argparse
import asyncio


def add_rebuild_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``poeppel rebuild-ratings``."""
    parser.add_argument("--guild", type=int, default=None, help="only this server's ratings")
    parser.add_argument("--database-url", default=None, help="the database (default: DATABASE_URL)")


async def rebuild_ratings(database_url: str, guild_id: int | None) -> list[str]:
    """Rebuild the ratings in ``database_url``; one line per server and game."""
    from bot.service import open_tables

    async with open_tables(database_url) as service:
        ratings = await service.rebuild_ratings(guild_id)
    lines = []
    for (guild, game), players in sorted(ratings.items()):
        lines.append(f"server {guild}, {game}: {len(players)} rated players")
    return lines


def run_rebuild(args: argparse.Namespace) -> int:
    """Run ``poeppel rebuild-ratings``; the exit status."""
    from bot.settings import load_settings

    url = args.database_url or load_settings().database_url
    lines = asyncio.run(rebuild_ratings(url, args.guild))
    for line in lines:
        print(line)
    print(f"Rebuilt the ratings of {len(lines)} server games.")
    return 0
