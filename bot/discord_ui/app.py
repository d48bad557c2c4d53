"""Building and running the Discord bot: ``run_bot``, ``sync_commands`` and the test factory.

``main`` owns the lifetimes of the resources with ``async with``: storage opens first and
closes last, the table service's clock runs only while the bot does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import yarl

from bot.bots.pool import BotPool, machine_cores
from bot.discord_ui.client import BotConfig, PoeppelBot, PoeppelShardedBot, sync_tree
from bot.discord_ui.commands import register_commands
from bot.discord_ui.frontdesk import FrontDesk
from bot.discord_ui.live_links import LiveLinks
from bot.discord_ui.logs import setup_logging
from bot.discord_ui.render_pool import RenderPool, render_workers, slow_lane
from bot.discord_ui.rendering import Renderer
from bot.discord_ui.tournament_commands import TournamentDesk
from bot.gc_tuning import collect_deferred, limit_malloc_arenas, tune_gc
from bot.settings import Settings, parse_shard_ids

if TYPE_CHECKING:
    from bot.model.effects import Listener
    from bot.service import TableService

log = logging.getLogger(__name__)

#: Another front end served beside Discord by the same process (the live board, #33): made
#: from the table service and the Discord front end's listener, which posts the effects of
#: moves made there to the table's thread as if made by a button.
SideFrontEnd = Callable[["TableService", "Listener"], AbstractAsyncContextManager[Any]]


def point_at_api(settings: Settings) -> None:
    """Use another Discord API base and gateway (only the tests' local fake sets them).

    The gateway matters for sharded processes: discord.py asks ``/gateway/bot`` for the
    gateway URL only when it chooses the shard count itself; given ``--shard-count`` it dials
    ``DiscordWebSocket.DEFAULT_GATEWAY`` directly (and so does the single-process bot).
    """
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def syncs_commands(settings: Settings, *, sync_flag: bool, shard_ids: list[int] | None) -> bool:
    """Whether this process syncs the slash commands on start.

    Asked for by ``--sync-commands`` (always honoured), or by ``SYNC_COMMANDS`` /
    ``DEV_GUILD_ID`` in the environment. Processes of one bot usually share one environment
    (one ``.env``), so the environment's wish is granted only to the process that owns shard 0
    (or to a process owning all shards): the commands are the application's, not a shard's,
    and several processes syncing at once would only race each other into Discord's rate
    limits on the command routes.
    """
    if sync_flag:
        return True
    wanted = settings.sync_commands or settings.dev_guild_id is not None
    return wanted and (shard_ids is None or 0 in shard_ids)


def create_bot(
    desk: FrontDesk,
    *,
    config: BotConfig | None = None,
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
    **options: Any,
) -> PoeppelBot | PoeppelShardedBot:
    """A bot wired to ``desk``, its slash commands on its tree: sharded when ``shard_count``
    is given.

    ``options`` go to discord.py's client (tests shorten ``guild_ready_timeout``).
    """
    bot: PoeppelBot | PoeppelShardedBot
    if shard_count is not None:
        bot = PoeppelShardedBot(
            desk, config, shard_count=shard_count, shard_ids=shard_ids, **options
        )
    else:
        bot = PoeppelBot(desk, config, **options)
    # Here, not in the client's setup_hook: the commands reach the client's desk, and the
    # client importing them closed an import circle (client -> commands -> client).
    register_commands(bot.tree)
    return bot


@contextlib.asynccontextmanager
async def open_service(
    database_url: str, *, renderer: Renderer | None = None, **service_options: Any
) -> AsyncIterator[FrontDesk]:
    """Open storage and the table service, and yield a front desk wired to them.

    The service's listener (turn clock, bots after a timeout) is the desk, so every effect
    reaches Discord whoever caused it.
    """
    from bot.service import open_tables

    desk = FrontDesk(None, renderer)
    async with open_tables(database_url, listener=desk.on_effects, **service_options) as service:
        desk.service = service
        # Tournaments (#32): their posts, told by the service when a round opens or ends.
        desk.tournament_desk = TournamentDesk(desk)
        service.tournaments.listener = desk.tournament_desk
        yield desk


def close_on_sigterm(bot: discord.Client) -> None:
    """End the bot cleanly on SIGTERM (``docker stop``, ``systemctl stop``, a rolling restart).

    Without this, SIGTERM kills the process on the spot. Nothing stored would be lost (every
    move is committed before it is announced), but closing lets the gateway connections end
    properly and the pending bot turns and board posts finish or stop in order.
    """
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    def close() -> None:
        task = loop.create_task(bot.close())
        tasks.add(task)  # keep a reference until it is done
        task.add_done_callback(tasks.discard)

    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
        loop.add_signal_handler(signal.SIGTERM, close)


async def _serve(
    settings: Settings,
    *,
    shard_count: int | None,
    shard_ids: list[int] | None,
    sync: bool,
    side: SideFrontEnd | None = None,
) -> None:
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    point_at_api(settings)
    config = BotConfig(
        sync_commands=syncs_commands(settings, sync_flag=sync, shard_ids=shard_ids),
        dev_guild_id=settings.dev_guild_id,
    )
    # Bot searches run in worker processes, started before anything is served (and stopped
    # last): the event loop and the renderer never wait for the GIL behind a search.
    pool = BotPool(
        settings.bot_workers,
        time_budget=settings.bot_time_budget,
        nice=settings.bot_worker_nice,
    )
    # Images are drawn in worker processes too, so the event loop never waits on Pillow.
    render_pool = _render_pool(settings)
    # The animated summary at a game's end apart, at the searches' priority: the boards of
    # the other tables do not wait behind it (bot/discord_ui/render_pool.py).
    slow_pool = slow_lane(settings.bot_worker_nice) if render_pool is not None else None
    renderer = Renderer.load(render_pool, slow_pool)
    async with (
        pool,
        render_pool if render_pool is not None else contextlib.nullcontext(),
        slow_pool if slow_pool is not None else contextlib.nullcontext(),
        open_service(
            settings.database_url,
            renderer=renderer,
            choose_bot_move=pool,
            defer_slow_bots=True,
            turn_time_scale=settings.turn_time_scale,
        ) as desk,
    ):
        desk.retry_interval = settings.board_retry_seconds
        desk.publisher.live = live_links(settings)
        desk.service.outbox_lease_seconds = settings.outbox_lease_seconds
        bot = create_bot(desk, config=config, shard_count=shard_count, shard_ids=shard_ids)
        # A sharded process arms the clocks and posts the results of its own guilds only.
        owns = getattr(bot, "owns_guild", None)
        async with bot:
            close_on_sigterm(bot)
            # Log in first (REST works from here), then arm the turn clocks, whose effects
            # are posted through REST, then connect to the gateway.
            await bot.login(token)
            await desk.service.start(owns_guild=owns)
            served = side(desk.service, desk.on_effects) if side else contextlib.nullcontext()
            # Everything alive now (modules, engine tables, storage) lives as long as the
            # process: freeze it out of the collector's scans before serving (bot/gc_tuning.py).
            tune_gc()
            # What the tuned collector defers is collected, and freed memory given back,
            # every minute (bot/gc_tuning.py, issue #37).
            collector = asyncio.create_task(collect_deferred())
            try:
                async with served:
                    await bot.connect()
            finally:
                collector.cancel()
                await desk.service.stop()


def live_links(settings: Settings) -> LiveLinks | None:
    """The live board's buttons on every board, when this process serves it (#33)."""
    if settings.web_port is None or not settings.web_public_url:
        return None
    return LiveLinks(settings.web_public_url, activity=bool(settings.discord_client_id))


def _render_pool(settings: Settings) -> RenderPool | None:
    """The render workers of ``settings`` (RENDER_WORKERS=0: none, draw in a thread)."""
    workers = settings.render_workers
    if workers is None:
        workers = render_workers(machine_cores(), settings.bot_workers)
    if workers == 0:
        return None
    return RenderPool(workers, nice=settings.render_worker_nice)


def run_bot(
    settings: Settings,
    *,
    shard_count: int | None = None,
    shard_ids: str | None = None,
    sync: bool = False,
    side: SideFrontEnd | None = None,
) -> int:
    """Connect to Discord and serve tables until interrupted; the exit status. ``side``: a
    front end served beside Discord (the live board)."""
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    setup_logging(settings.log_level, secrets=[token])
    # Before any thread starts: the board-drawing threads share few malloc arenas (#37).
    limit_malloc_arenas()
    count = shard_count if shard_count is not None else settings.shard_count
    try:
        ids = parse_shard_ids(shard_ids if shard_ids is not None else settings.shard_ids)
    except ValueError as error:
        log.error("%s", error)
        return 2
    if ids is not None and count is None:
        log.error("--shard-ids needs --shard-count (the total over all processes)")
        return 2
    try:
        asyncio.run(_serve(settings, shard_count=count, shard_ids=ids, sync=sync, side=side))
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN); check it in the developer portal")
        return 1
    return 0


async def _sync(settings: Settings) -> int:
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    point_at_api(settings)
    bot = PoeppelBot(FrontDesk(None, Renderer()), BotConfig())
    register_commands(bot.tree)
    async with bot:
        await bot.login(token)
        return await sync_tree(bot, settings.dev_guild_id)


def sync_commands(settings: Settings) -> int:
    """Register the slash commands with Discord (globally, or to ``DEV_GUILD_ID``) and exit."""
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    setup_logging(settings.log_level, secrets=[token])
    try:
        count = asyncio.run(_sync(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN); check it in the developer portal")
        return 1
    print(f"Synced {count} commands.")
    return 0
