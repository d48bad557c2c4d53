"""Choosing the bots' level in Discord, and no catalogue key ever shown to a player as-is."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.model.table import BOT_LEVELS
from i18n.catalog import LOCALES, has_key, keys
from tests.bot.discord.conftest import RecordingRenderer, World, private_text
from tests.bot.discord.driving import Stats, greedy_chooser, play_race_turn
from tests.bot.discord.test_languages import german_world  # noqa: F401 (a fixture)
from tests.bot.discord.test_lobby import open_table
from tests.fakediscord.models import Message, iter_components

#: Something that reads like a catalogue key: ``family.word`` (``bot_level.normal``).
KEY_LIKE = re.compile(r"(?<![\w.])([a-z][a-z0-9_]*)(?:\.[a-z0-9_]+)+(?![\w.])")


#: File names (an image's ``board.png``) are no keys.
FILE_TYPES = (".png", ".jpg", ".gif", ".txt")


def key_like(text: str) -> list[str]:
    """The words of ``text`` that look like a key of one of the catalogue's families."""
    families = {key.split(".", 1)[0] for key in keys()}
    return [
        m.group(0)
        for m in KEY_LIKE.finditer(text)
        if m.group(1) in families and not m.group(0).endswith(FILE_TYPES)
    ]


def shown_texts(message: Message) -> Iterator[str]:
    """Every string of a message that a player reads: text, buttons, select menus."""
    yield message.text
    for embed in message.embeds:
        yield str((embed.get("footer") or {}).get("text", ""))
    for component in iter_components(message.components):
        for field in ("label", "placeholder"):
            yield str(component.get(field) or "")
        for option in component.get("options") or []:
            yield str(option.get("label", ""))
            yield str(option.get("description") or "")


def select_level(lobby: Message) -> dict[str, Any]:
    return next(c for c in iter_components(lobby.components) if c["type"] == 3)


def test_every_level_has_its_words_in_every_language() -> None:
    for level in BOT_LEVELS:
        for locale in LOCALES:
            for key in (
                f"bot_level.{level}",
                f"lobby.add_bot_option.{level}",
                f"cmd.choice.{level}",
            ):
                assert has_key(key, locale), (key, locale)


def test_key_like_finds_keys_and_nothing_else() -> None:
    assert key_like("🤖 Bot 2 (bot_level.normal)") == ["bot_level.normal"]
    assert key_like("lobby.title") == ["lobby.title"]
    assert key_like("Seat 2. Bot 3 (hard). 3.5 points, board.png, e.g. this") == []


async def test_the_host_chooses_the_tables_level_and_each_bots(world: World) -> None:
    table_id, lobby = await open_table(world, "tock", players=4, bot_level="hard")
    assert "Bot level: **hard**" in lobby.text
    await world.alice.click(lobby, label="Add bot")
    assert "Bot 2 (hard)" in world.lobby(table_id).text
    menu = select_level(world.lobby(table_id))
    assert [o["value"] for o in menu["options"]] == ["easy", "normal", "hard"]
    picked = await world.alice.select(
        world.lobby(table_id), custom_id=menu["custom_id"], values=["easy"]
    )
    assert "bot" in private_text(picked, world.alice).lower()
    lobby = world.lobby(table_id)
    assert "Bot 3 (easy)" in lobby.text
    # Only the host adds bots; the answer is private and the lobby stays as it was.
    refused = await world.bob.select(lobby, custom_id=menu["custom_id"], values=["normal"])
    assert "host" in private_text(refused, world.bob).lower()
    assert world.lobby(table_id).text == lobby.text
    await world.alice.click(lobby, label="Start")
    thread = world.thread_of(world.lobby(table_id))
    board = await world.wait(lambda: world.boards(thread) and world.newest_board(thread))
    assert board is not None
    table = await world.desk.service.get(table_id)  # type: ignore[union-attr]
    assert [s.bot_level for s in table.seats] == [None, "hard", "easy", None][: len(table.seats)]


async def test_a_table_without_the_option_has_normal_bots(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    assert "Bot level: **normal**" in lobby.text
    await world.alice.click(lobby, label="Add bot")
    assert "🤖 Bot 2 (normal)" in world.lobby(table_id).text


@pytest.mark.slow
async def test_no_catalogue_key_reaches_a_player(german_world: World) -> None:  # noqa: F811
    world = german_world  # alice reads German, bob Hungarian, carol English
    world.bot_brain = greedy_chooser
    world.renderer = RecordingRenderer().renderer()  # many boards: a fast stand-in
    await world.restart()
    tables, lobbies = [], []
    for level in BOT_LEVELS:
        opened = await world.alice.slash(world.channel, "tock new", players=4, bot_level=level)
        answer = private_text(opened, world.alice)
        assert "ist eröffnet" in answer
        table_id = int(answer.split("#", 1)[1].split(" ", 1)[0])
        lobby = world.lobby(table_id)
        assert "Bot-Stärke" in lobby.text
        await world.bob.click(lobby, label="Beitreten")
        await world.alice.click(world.lobby(table_id), label="Bot hinzufügen")
        menu = select_level(world.lobby(table_id))
        other = next(lv for lv in BOT_LEVELS if lv != level)
        await world.alice.select(world.lobby(table_id), custom_id=menu["custom_id"], values=[other])
        lobbies.append(world.lobby(table_id).text)
        await world.alice.click(world.lobby(table_id), label="Starten")
        tables.append(table_id)
    rng = random.Random(4)
    per_table = {table_id: Stats() for table_id in tables}  # a hand belongs to one table
    for _round in range(4):
        for table_id in tables:
            thread, stats = world.thread_of(world.lobby(table_id)), per_table[table_id]
            for user in (world.alice, world.bob):
                info = await world.desk.service.private_info(table_id, user.id)  # type: ignore[union-attr]
                if not info.to_act or (info.view or {}).get("my_pick"):
                    continue
                # A hand left open may show the last turn for a moment: the driver then opens
                # a fresh one from the board (the words read are what this test is about).
                try:
                    await play_race_turn(
                        world, table_id, user, thread, rng, stats, label="Meine Karten zeigen"
                    )
                except AssertionError:
                    stats.hands.pop(user.id, None)
                    await play_race_turn(
                        world, table_id, user, thread, rng, stats, label="Meine Karten zeigen"
                    )
    assert sum(stats.turns for stats in per_table.values()) >= 8
    for table_id in tables:  # somebody leaves: their seat goes to a bot of the table's level
        await world.bob.slash(world.channel, "table leave", table=table_id)
        await world.desk.service.idle()  # type: ignore[union-attr]
    status = await world.carol.slash(world.channel, "table status", table=tables[0])
    assert "🤖 Bot 3 (easy)" in private_text(status, world.carol)

    raw = {
        (message.id, word)
        for message in world.fake.messages_by_id.values()
        for text in shown_texts(message)
        for word in key_like(text)
    }
    assert not raw, raw
    assert "Bot-Stärke: **leicht**" in lobbies[0]
    assert "🤖 Bot 4 (normal)" in lobbies[0]
    # Every message a player got in this game was read (the scan is not vacuous).
    readers = {m.visible_to and tuple(m.visible_to) for m in world.fake.messages_by_id.values()}
    assert (world.bob.id,) in readers
    assert (world.alice.id,) in readers
