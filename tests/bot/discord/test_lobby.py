"""Opening, joining, starting and abandoning tables through slash commands and lobby buttons."""

from __future__ import annotations

from typing import Any

from tests.bot.discord.conftest import World, private_text


async def open_table(world: World, game: str, **options: object) -> tuple[int, object]:
    """Alice opens a table; returns its id and its lobby message."""
    result = await world.alice.slash(world.channel, f"{game} new", **options)
    text = private_text(result, world.alice)
    assert "is open" in text, text
    table_id = int(text.split("#", 1)[1].split(" ", 1)[0])
    return table_id, world.lobby(table_id)


async def start_for_two(world: World, game: str, seed: int, **options: object) -> tuple[int, Any]:
    """Alice opens a two-player table (the given ``seed``), bob joins, alice starts; the table
    id and its thread, once the first board is up."""
    world.seeds.append(seed)
    table_id, lobby = await open_table(world, game, players=2, **options)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    return table_id, thread


async def test_open_table_posts_lobby_and_thread(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=3, river=True)
    assert "Carcassonne" in lobby.text
    assert "alice" in lobby.text
    assert "river" in lobby.text
    assert [b["label"] for b in lobby.buttons] == ["Join", "Leave", "Add bot", "Start"]
    thread = world.thread_of(lobby)
    assert thread.parent_id == world.channel.id
    assert f"#{table_id}" in thread.name


async def test_join_add_bot_start_and_the_lobby_follows(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=3)
    result = await world.bob.click(lobby, label="Join")
    assert "seat" in private_text(result, world.bob)
    lobby = world.lobby(table_id)
    assert "bob" in lobby.text

    refused = await world.bob.click(lobby, label="Start")
    assert "host" in private_text(refused, world.bob).lower()

    await world.alice.click(lobby, label="Add bot")
    started = await world.alice.click(world.lobby(table_id), label="Start")
    assert "started" in private_text(started, world.alice)
    lobby = world.lobby(table_id)
    assert "The game is on" in lobby.text
    assert not lobby.buttons, "the lobby buttons go once the game starts"
    thread = world.thread_of(lobby)
    board = await world.wait(lambda: world.boards(thread) and world.newest_board(thread))
    assert board.files, "the first board carries the board image"
    assert board.files[0].data.startswith(b"\x89PNG")


async def test_join_twice_and_join_a_full_table_are_refused_privately(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    again = await world.alice.click(lobby, label="Join")
    assert "already" in private_text(again, world.alice)
    await world.bob.click(lobby, label="Join")
    full = await world.carol.click(world.lobby(table_id), label="Join")
    assert private_text(full, world.carol)


async def test_abandon_by_host_or_moderator_only(world: World) -> None:
    table_id, _lobby = await open_table(world, "carcassonne", players=2)
    refused = await world.bob.slash(world.channel, "table abandon", table=table_id)
    assert "host" in private_text(refused, world.bob).lower()
    done = await world.carol.slash(world.channel, "table abandon", table=table_id)
    assert "abandoned" in private_text(done, world.carol)
    lobby = world.lobby(table_id)
    assert "abandoned" in lobby.text
    assert not lobby.buttons


async def test_two_tables_in_one_channel(world: World) -> None:
    first, _ = await open_table(world, "carcassonne", players=2)
    second, _ = await open_table(world, "carcassonne", players=3)
    choices = await world.bob.autocomplete(world.channel, "table join", "table", "")
    assert {c["value"] for c in choices} >= {first, second}
    # Without a table option the command cannot guess which table is meant.
    ambiguous = await world.bob.slash(world.channel, "table join")
    assert "Several tables" in private_text(ambiguous, world.bob)
    joined = await world.bob.slash(world.channel, "table join", table=second)
    assert "joined" in private_text(joined, world.bob)
    assert "bob" in world.lobby(second).text
    assert "bob" not in world.lobby(first).text


async def test_rules_are_private(world: World) -> None:
    result = await world.bob.slash(world.channel, "rules", game="dog")
    assert "Dog" in private_text(result, world.bob)


async def test_missing_thread_permission_is_explained_privately(world: World) -> None:
    from tests.fakediscord.faults import Fault

    missing = {"message": "Missing Permissions", "code": 50013}
    world.fake.inject_fault(Fault("POST", "/channels/*/messages/*/threads", 403, missing))
    result = await world.alice.slash(world.channel, "tock new", players=2)
    assert "threads" in private_text(result, world.alice)
    tables = await world.desk.service.list_tables(world.guild.id, world.channel.id, active=True)
    assert tables == [], "the table that could not be shown is not left open"


async def test_join_a_chosen_team(world: World) -> None:
    table_id, _lobby = await open_table(world, "tock", players=4, game_type="2v2")
    joined = await world.bob.slash(world.channel, "table join", table=table_id, team=1)
    assert "joined" in private_text(joined, world.bob)
    lines = world.lobby(table_id).text.splitlines()
    alice_team = next(line for line in lines if "alice" in line).rsplit("team ", 1)[1]
    bob_team = next(line for line in lines if "bob" in line).rsplit("team ", 1)[1]
    assert alice_team == bob_team == "1"  # the team asked for, numbered as it was asked


async def test_two_games_in_one_channel_keep_to_their_threads(world: World) -> None:
    import random

    from tests.bot.discord.driving import Stats, play_tile_turn, to_act

    threads = []
    for seed in (1, 2):
        world.seeds.append(seed)
        table_id, lobby = await open_table(world, "carcassonne", players=2)
        await world.bob.click(lobby, label="Join")
        await world.alice.click(world.lobby(table_id), label="Start")
        threads.append((table_id, world.thread_of(world.lobby(table_id))))
    (first, thread_one), (second, thread_two) = threads
    assert thread_one.id != thread_two.id
    before_one, before_two = len(world.boards(thread_one)), len(world.boards(thread_two))
    user = to_act(world.newest_board(thread_two), [world.alice, world.bob])[0]
    await play_tile_turn(world, second, user, thread_two, random.Random(1), Stats())
    assert len(world.boards(thread_two)) == before_two + 1, "the move's board in its thread"
    assert len(world.boards(thread_one)) == before_one, "the other table's thread is untouched"
    assert all(f"t:{second}:" in b["custom_id"] for b in world.newest_board(thread_two).buttons)
    assert all(f"t:{first}:" in b["custom_id"] for b in world.newest_board(thread_one).buttons)
