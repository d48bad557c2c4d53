"""Fixtures for the end-to-end tests of the Discord front end against the local fake Discord.

``world`` is a fake Discord with one guild, a channel and three members (alice, bob, carol),
and Pöppel's real bot (real table service over SQLite, real engines, real renderer) connected to
it. ``world.restart()`` stops the bot and starts a fresh process-like one on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.bots.choosers import random_chooser
from bot.discord_ui.app import create_bot, open_service
from bot.discord_ui.client import BotConfig
from bot.discord_ui.frontdesk import RETRY_INTERVAL, FrontDesk
from bot.discord_ui.rendering import Renderer
from bot.model.clock import FakeClock
from tests.fakediscord.models import Channel, Guild, Message
from tests.fakediscord.scripting import InteractionResult, ScriptedUser
from tests.fakediscord.server import FakeDiscord


@dataclass
class World:
    """The fake Discord, its guild and users, and the running bot."""

    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: ScriptedUser
    bob: ScriptedUser
    carol: ScriptedUser
    database_url: str
    renderer: Renderer
    clock: FakeClock = field(default_factory=FakeClock)
    desk: FrontDesk | None = None
    bot: Any = None
    _stack: contextlib.AsyncExitStack | None = None
    seeds: list[int] = field(default_factory=list)
    bot_brain: Any = random_chooser
    #: Seconds between the bot's looks for boards it could not post (its retry ticks).
    retry_interval: float = RETRY_INTERVAL

    async def start_bot(self) -> None:
        """Open the service on the database and connect a new bot to the fake."""
        stack = contextlib.AsyncExitStack()
        desk = await stack.enter_async_context(
            open_service(
                self.database_url,
                renderer=self.renderer,
                clock=self.clock,
                choose_bot_move=self.bot_brain,
            )
        )
        desk.seeds = self.seeds
        desk.retry_interval = self.retry_interval
        await desk.service.start()  # the turn clock
        stack.push_async_callback(desk.service.stop)
        bot = create_bot(
            desk,
            config=BotConfig(sync_commands=True, dev_guild_id=self.guild.id),
            # discord.py waits this long after the last GUILD_CREATE before READY.
            guild_ready_timeout=0.05,
        )
        await stack.enter_async_context(self.fake.running(bot))
        self.desk, self.bot, self._stack = desk, bot, stack
        # The desk answers a move first and posts its boards after: a user's next look at the
        # thread comes once those are out.
        self.fake.after_settle = [desk.deliveries_done]

    async def stop_bot(self) -> None:
        """Disconnect the bot and close its storage (like a process exit)."""
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = None

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database."""
        await self.stop_bot()
        await self.start_bot()

    # --- reading the fake ------------------------------------------------------------------

    def lobby(self, table_id: int | None = None) -> Message:
        """The lobby message of a table (the newest one without a table id)."""
        # The lobby's first line is "**Tock** table #7 — host …" in every language.
        wanted = re.compile(rf"#{table_id if table_id is not None else '[0-9]+'} — ")
        for message in reversed(self.fake.messages(self.channel)):
            first_line = message.text.split("\n", 1)[0]
            if message.author.id == self.fake.bot_user.id and wanted.search(first_line):
                return message
        raise AssertionError("no lobby message")

    def thread_of(self, lobby: Message) -> Channel:
        """The thread opened from a lobby message."""
        assert lobby.thread_id is not None, "no thread was started from the lobby"
        return self.fake.channel_of(lobby.thread_id)

    def boards(self, thread: Channel) -> list[Message]:
        """The board messages of a thread, oldest first."""
        return [
            m
            for m in self.fake.messages(thread)
            if m.author.id == self.fake.bot_user.id and not m.ephemeral
        ]

    def newest_board(self, thread: Channel) -> Message:
        """The newest board message that carries controls."""
        for message in reversed(self.boards(thread)):
            if message.components:
                return message
        raise AssertionError("no board with controls")

    async def wait(self, predicate: Callable[[], Any], what: str = "", limit: float = 10) -> Any:
        """Wait for the bot to make ``predicate`` true (polled often: games take many steps)."""
        deadline = time.monotonic() + limit
        while not (value := predicate()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met in {limit}s {what}")
            await asyncio.sleep(0.002)
        return value


def _tiny_png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(buffer, format="PNG")
    return buffer.getvalue()


class RecordingRenderer:
    """A fast stand-in for the renderer in long play-outs: a tiny PNG per image, and a record
    of every view drawn for the public (boards, and Carcassonne boards with numbered cells),
    so a test can check none held a hand."""

    def __init__(self) -> None:
        self.png = _tiny_png()
        self.public_views: list[dict[str, Any]] = []

    def renderer(self) -> Renderer:
        """The :class:`Renderer` to hand to the bot."""

        def board(
            view: Any,
            *,
            names: Any = None,
            highlight: Any = None,
            locale: Any = None,
            whole: bool = False,
        ) -> bytes:
            self.public_views.append(dict(view))
            return self.png

        def placements(view: Any, cells: Any, *, names: Any = None, locale: Any = None) -> bytes:
            self.public_views.append(dict(view))
            return self.png

        return Renderer(
            render_board=board,
            render_hand=lambda game, cards, playable=None, locale=None: self.png,
            render_placements=placements,
        )


def private_text(result: InteractionResult, user: ScriptedUser) -> str:
    """The text of the messages of ``result`` that ``user`` sees, asserting they are private."""
    messages = result.visible_to(user)
    assert messages, f"no answer visible to {user.name}: {result}"
    for message in messages:
        assert message.ephemeral, f"answer is public: {message.text!r}"
    return "\n".join(m.text for m in messages)


def posting_outage(world: World, times: int) -> None:
    """Discord fails the bot's next posts with 503: ``times`` posts in a thread, and the next
    follow-up (a click's board goes out as one, bot.discord_ui.click_route)."""
    world.fake.inject_server_error("POST", "/channels/*/messages", status=503, times=times)
    world.fake.inject_server_error("POST", "/webhooks/*", status=503, times=1)


@contextlib.asynccontextmanager
async def running_world(
    tmp_path: Path,
    *,
    guild_name: str = "Tavern",
    channel_name: str = "games",
    guild_locale: str = "en-US",
    locales: tuple[str, str, str] = ("en-US", "en-US", "en-US"),
    renderer: Renderer | None = None,
) -> AsyncIterator[World]:
    """A fake Discord with a guild, a channel, alice, bob and carol (a moderator), and the
    bot connected; ``locales`` are the three members' languages.

    On leaving it stops the bot and checks that Discord neither refused a request of the
    bot nor saw it call a route Discord does not have.
    """
    async with FakeDiscord() as fake:
        guild = fake.add_guild(guild_name, locale=guild_locale)
        channel = fake.add_channel(guild, channel_name)
        alice, bob, carol = locales
        world = World(
            fake=fake,
            guild=guild,
            channel=channel,
            alice=fake.add_user("alice", guild=guild, locale=alice),
            bob=fake.add_user("bob", guild=guild, locale=bob),
            carol=fake.add_user("carol", guild=guild, manage_threads=True, locale=carol),
            database_url=f"sqlite:///{tmp_path / 'tables.sqlite3'}",
            renderer=Renderer.load() if renderer is None else renderer,
        )
        await world.start_bot()
        try:
            yield world
        finally:
            await world.stop_bot()
        assert not fake.unknown_routes, f"the bot called unknown routes: {fake.unknown_routes}"
        refused = [(r.method, r.path, r.status, r.body) for r in fake.rejected]
        assert not refused, f"Discord refused requests of the bot: {refused}"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """A fake Discord with a guild, a channel, three members and the bot connected."""
    async with running_world(tmp_path) as world:
        yield world


@pytest.fixture
async def board_gate(world: World) -> AsyncIterator[threading.Event]:
    """Boards are drawn only once the returned event is set (the bot restarts with it)."""
    closed = threading.Event()
    renderer = Renderer.load()
    draw = renderer.render_board
    assert draw is not None

    def gated(*args: Any, **kwargs: Any) -> bytes:
        closed.wait(10)
        return draw(*args, **kwargs)

    world.renderer = dataclasses.replace(renderer, render_board=gated)
    await world.restart()
    try:
        yield closed
    finally:
        closed.set()  # never leave a drawing thread waiting
