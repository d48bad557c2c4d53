"""Pöppel in German and Hungarian: private answers in the clicker's language, public
messages in the server's, through the whole path from command to board."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.discord.conftest import World, private_text, running_world


@pytest.fixture
async def german_world(tmp_path: Path) -> AsyncIterator[World]:
    """A German server; alice writes German, bob Hungarian, carol English."""
    async with running_world(
        tmp_path,
        guild_name="Stammtisch",
        channel_name="spiele",
        guild_locale="de",
        locales=("de", "hu", "en-US"),
    ) as world:
        yield world


async def test_a_table_in_a_german_server(german_world: World) -> None:
    world = german_world
    opened = await world.alice.slash(world.channel, "tock new", players=2)
    answer = private_text(opened, world.alice)
    assert "ist eröffnet" in answer
    table_id = int(answer.split("#", 1)[1].split(" ", 1)[0])
    lobby = world.lobby(table_id)
    assert "Warten auf Spieler" in lobby.text
    assert "2 Spieler" in lobby.text
    assert [b["label"] for b in lobby.buttons] == [
        "Beitreten",
        "Verlassen",
        "Bot hinzufügen",
        "Starten",
    ]
    assert f"#{table_id}" in world.thread_of(lobby).name

    joined = await world.bob.click(lobby, label="Beitreten")
    assert "Helyet foglaltál" in private_text(joined, world.bob)
    again = await world.bob.click(world.lobby(table_id), label="Beitreten")
    assert "Már van helyed" in private_text(again, world.bob)
    refused = await world.carol.click(world.lobby(table_id), label="Starten")
    assert "host" in private_text(refused, world.carol).lower()

    started = await world.alice.click(world.lobby(table_id), label="Starten")
    assert "Das Spiel hat begonnen" in private_text(started, world.alice)
    thread = world.thread_of(world.lobby(table_id))
    board = await world.wait(lambda: world.boards(thread) and world.newest_board(thread))
    assert "am Zug" in board.text
    assert [b["label"] for b in board.buttons] == ["Meine Karten zeigen"]
    assert board.files[0].data.startswith(b"\x89PNG")

    hand = await world.bob.click(board, label="Meine Karten zeigen")
    text = private_text(hand, world.bob)
    # Bob's turn or not, with a card to play or only a discard: the prompt is Hungarian.
    assert any(words in text for words in ("következel", "dobj el")), text


async def test_rules_in_the_readers_language(german_world: World) -> None:
    world = german_world
    german = await world.alice.slash(world.channel, "rules", game="dog", topic="joker")
    assert private_text(german, world.alice).startswith("**Dog — der Joker**")
    hungarian = await world.bob.slash(world.channel, "rules", game="tock", topic="seven")
    assert private_text(hungarian, world.bob).startswith("**Tock — a hetes**")
    english = await world.carol.slash(world.channel, "rules", game="carcassonne")
    text = private_text(english, world.carol)
    assert text.startswith("**Carcassonne**")
    assert "Figures" in text  # the overview lists the other topics
