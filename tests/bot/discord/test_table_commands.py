"""/table status, board, log, leave and kick, and the turn clock acting for a player."""

from __future__ import annotations

import random

from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import Stats, play_race_turn
from tests.bot.discord.test_lobby import open_table
from tests.bot.discord.test_refusals import start_tock_against_a_bot


async def test_status_board_and_log(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    await play_race_turn(world, table_id, world.alice, thread, random.Random(1), Stats())
    status = await world.bob.slash(world.channel, "table status", table=table_id)
    assert "alice" in private_text(status, world.bob)
    log = await world.alice.slash(thread, "table log")  # in the thread: no table option needed
    text = private_text(log, world.alice)
    assert "1. alice" in text
    boards = len(world.boards(thread))
    again = await world.alice.slash(world.channel, "table board", table=table_id)
    assert "posted" in private_text(again, world.alice)
    assert len(world.boards(thread)) == boards + 1
    assert world.newest_board(thread).id == world.boards(thread)[-1].id


async def test_the_log_tells_the_moves_as_the_thread_did_and_notation_only_when_asked(
    world: World,
) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    for _ in range(3):
        await play_race_turn(world, table_id, world.alice, thread, random.Random(1), Stats())
    # Each digest tells alice's move and the bot's after it, a line each.
    told = [line for m in world.boards(thread) for line in m.content.split("\n")]
    words = private_text(await world.alice.slash(thread, "table log"), world.alice)
    lines = words.splitlines()[1:]
    assert len(lines) == 6  # alice's three moves and the bot's three
    said = [line.partition(". ")[2] for line in lines]
    # The same sentences, in the same order, as the thread got when the moves were made.
    assert said == [text for text in told if text in said]
    assert all(text in told for text in said)
    entries = await world.desk.service.storage.load_log(table_id)
    assert not any(e.text in words for e in entries), "no notation unless asked for"
    asked = await world.alice.slash(thread, "table log", notation=True)
    notation = private_text(asked, world.alice).splitlines()[1:]
    names = {e.seat: "alice" if e.seat == 0 else "Bot 2" for e in entries}
    assert notation == [f"{e.index + 1}. {names[e.seat]}: {e.text}" for e in entries]


async def test_leave_and_kick_in_the_lobby(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=3)
    await world.bob.click(lobby, label="Join")
    await world.carol.click(world.lobby(table_id), label="Join")
    left = await world.bob.slash(world.channel, "table leave", table=table_id)
    assert "left" in private_text(left, world.bob)
    assert "bob" not in world.lobby(table_id).text
    refused = await world.carol.slash(
        world.channel, "table kick", table=table_id, member=world.alice
    )
    assert "host" in private_text(refused, world.carol).lower()
    kicked = await world.alice.slash(
        world.channel, "table kick", table=table_id, member=world.carol
    )
    assert "removed" in private_text(kicked, world.alice)
    assert "carol" not in world.lobby(table_id).text


async def test_turn_clock_acts_and_the_board_follows(world: World) -> None:
    world.seeds.append(6)
    table_id, lobby = await open_table(world, "tock", players=2, turn_time=60)
    await world.alice.click(lobby, label="Add bot")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    world.clock.advance(61)

    def timed_out() -> bool:
        # The digest that tells it may replace the one before it (re-posted at the bottom).
        return any("did not act in time" in m.content for m in world.boards(thread))

    await world.wait(timed_out, limit=15)
    # Her turn began again after the bot's: the digest came down to the bottom and pinged her
    # (she never opened her hand, so no prompt told her).
    newest = world.newest_board(thread)
    assert "did not act in time" in newest.content
    assert world.fake.pings(world.alice)[-1].message_id == newest.id


async def test_leaving_a_game_in_play_hands_the_seat_over(world: World) -> None:
    world.seeds.append(8)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.newest_board(thread))
    left = await world.bob.slash(thread, "table leave")
    assert "left" in private_text(left, world.bob)
    table = await world.desk.service.get(table_id)
    assert table.seat_of(world.bob.id) is None, "bob no longer plays"
    assert "bob (left)" in world.lobby(table_id).text


async def test_a_table_of_another_server_is_no_table_here(world: World) -> None:
    """A table's number is no key to it from another server: no log, status, board or seat."""
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    other = world.fake.add_guild("Elsewhere")
    channel = world.fake.add_channel(other, "games")
    stranger = world.fake.add_user("stranger", guild=other)
    # The commands as a global sync would give every server (the test bot syncs to one).
    world.fake.guild_commands[other.id] = world.fake.guild_commands[world.guild.id]
    boards = len(world.boards(thread))
    for command in ("table log", "table status", "table board", "table join"):
        answer = await stranger.slash(channel, command, table=table_id)
        text = private_text(answer, stranger)
        assert f"There is no table {table_id}." in text, (command, text)
        assert "alice" not in text
    assert len(world.boards(thread)) == boards, "no board was posted for the stranger"
    table = await world.desk.service.get(table_id)
    assert table.seat_of(stranger.id) is None


async def test_a_crafted_button_of_another_servers_table_is_refused(world: World) -> None:
    table_id, lobby = await open_table(world, "carcassonne", players=3)
    other = world.fake.add_guild("Elsewhere")
    channel = world.fake.add_channel(other, "games")
    stranger = world.fake.add_user("stranger", guild=other)
    crafted = world.fake.new_message(
        channel,
        world.fake.bot_user,
        content="Join my table!",
        components=[lobby.components[0]],  # the real lobby's buttons, in another server
    )
    answer = await stranger.click(crafted, label="Join")
    assert f"There is no table {table_id}." in private_text(answer, stranger)
    table = await world.desk.service.get(table_id)
    assert table.seat_of(stranger.id) is None
