"""A tiny discord.py bot that exercises the fake, and fixtures that run it."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import Channel, FakeDiscord, Guild, ScriptedUser


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG of the given size (no Pillow needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class LobbyView(discord.ui.View):
    """Join/Start buttons; Join updates the lobby message in place (callback type 7)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content="Players: " + ", ".join(self.players))

    @discord.ui.button(label="Start", custom_id="lobby:start", disabled=True)
    async def start(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.send_message("started")


class DiceView(discord.ui.View):
    """A button whose answer is a deferred update followed, later, by an edit."""

    @discord.ui.button(label="Roll", custom_id="dice:roll")
    async def roll(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.2)  # slow work (e.g. rendering) between defer and edit
        await interaction.edit_original_response(content="rolled 6")


class PickView(discord.ui.View):
    """A select menu answering with an ephemeral message."""

    @discord.ui.select(
        custom_id="pick",
        placeholder="How many?",
        options=[discord.SelectOption(label=str(n), value=str(n)) for n in (2, 3, 4)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    """A modal with one text input."""

    name: discord.ui.TextInput = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class DemoBot(commands.Bot):
    """The bot the fake's own tests drive. `held` keeps interactions a test answers itself."""

    def __init__(self, **kwargs: Any) -> None:
        # guild_ready_timeout: discord.py otherwise waits 2 s for more GUILD_CREATEs.
        kwargs.setdefault("guild_ready_timeout", 0.05)
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **kwargs)
        self.held: list[discord.Interaction] = []
        self.add_commands()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shard IDENTIFYs against the fake."""

    async def setup_hook(self) -> None:
        self.add_view(LobbyView())
        await self.tree.sync()

    def add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(description="Ephemeral answer")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("psst", ephemeral=True)

        @tree.command(description="Public defer, then a follow-up asking for ephemeral")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await interaction.followup.send("done", ephemeral=True)
            await interaction.followup.send("second", ephemeral=True)

        @tree.command(description="Ephemeral defer, then a follow-up")
        async def slowsecret(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.followup.send("done")

        @tree.command(description="Hold the interaction for the test to answer")
        async def hold(interaction: discord.Interaction) -> None:
            self.held.append(interaction)

        @tree.command(description="Answer twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            try:
                await interaction.response.send_message("two")
            except discord.InteractionResponded:
                # discord.py guards this locally; go around it to reach Discord.
                interaction.response._response_type = None
                await interaction.response.send_message("two")

        @tree.command(description="Pick a number")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=PickView())

        @tree.command(description="Roll a die")
        async def dice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("roll?", view=DiceView())

        @tree.command(description="Open a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Send a board image")
        async def board(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
            files = [
                discord.File(io.BytesIO(tiny_png()), "board.png"),
                discord.File(io.BytesIO(b"log"), "log.txt"),
            ]
            await interaction.response.send_message(embed=embed, files=files)

        game = app_commands.Group(name="game", description="Games")

        @game.command(name="new", description="New lobby")
        @app_commands.describe(players="How many players")
        async def game_new(
            interaction: discord.Interaction, players: app_commands.Range[int, 2, 6]
        ) -> None:
            await interaction.response.send_message(f"Lobby for {players}", view=LobbyView())

        @game.command(name="join", description="Join a table")
        async def game_join(interaction: discord.Interaction, table: str) -> None:
            await interaction.response.send_message(f"joined {table}", ephemeral=True)

        @game_join.autocomplete("table")
        async def table_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["alpha", "beta", "gamma"]
            return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

        @game.command(name="thread", description="Open a thread for a game")
        async def game_thread(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Game starts")
            msg = await interaction.original_response()
            thread = await msg.create_thread(name="Game 1")
            await thread.add_user(interaction.user)
            await thread.send("Welcome")

        tree.add_command(game)


@dataclass
class World:
    """A running fake with one guild, one channel, two users and the demo bot connected."""

    fake: FakeDiscord
    guild: Guild
    chan: Channel
    alice: ScriptedUser
    bob: ScriptedUser
    bot: DemoBot

    def text_channel(self) -> discord.TextChannel:
        """The bot's view of `chan`."""
        channel = self.bot.get_channel(self.chan.id)
        assert isinstance(channel, discord.TextChannel)
        return channel


@pytest.fixture
async def world() -> AsyncIterator[World]:
    """The demo bot running against a fresh fake."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern", locale="de")
        chan = fake.add_channel(guild, "games")
        alice = fake.add_user("alice", guild=guild)
        bob = fake.add_user("bob", guild=guild)
        bot = DemoBot()
        async with fake.running(bot):
            yield World(fake, guild, chan, alice, bob, bot)
        assert not fake.unknown_routes, fake.unknown_routes
        assert not fake.internal_errors, fake.internal_errors
