"""Hints for learners end to end: ``hints: on`` at the table, the *Hint* button, ``/table hint``.

The hint is the ``hard`` bot's move for the asking seat, said privately with the labels of
the player's own buttons and a reason; refused on tables without hints, to spectators and
out of turn.
"""

from __future__ import annotations

import re

from bot.discord_ui.texts import move_label, seat_name
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import open_prompt
from tests.bot.discord.test_lobby import open_table

#: A short search keeps the tests quick (the hint is still the hard bot's choice).
HINT_SECONDS = 0.2
_MOVE = re.compile(r"\*\*(?P<move>.+?)\*\*")


async def _start_for_two(world: World, game: str, **options: object) -> tuple[int, object]:
    """Alice and Bob at a 2-player table (no bots); returns the id and thread."""
    world.seeds.append(5)
    table_id, lobby = await open_table(world, game, players=2, **options)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    thread = world.thread_of(world.lobby(table_id))
    await world.wait(lambda: world.boards(thread) and world.newest_board(thread))
    assert world.desk is not None
    world.desk.service.hint_time_budget = HINT_SECONDS
    return table_id, thread


async def _seat_in_turn(world: World, table_id: int) -> tuple[object, object]:
    """(player to act, the other player)."""
    assert world.desk is not None
    view = await world.desk.service.public_view(table_id)
    table = await world.desk.service.get(table_id)
    first = next(s for s in table.seats if s.index == view["to_act"][0])
    if first.user_id == world.alice.id:
        return world.alice, world.bob
    return world.bob, world.alice


async def _labels_of(world: World, table_id: int, user: object) -> set[str]:
    """The move labels of ``user``'s legal moves, as their buttons say them."""
    assert world.desk is not None
    info = await world.desk.service.private_info(table_id, user.id)  # type: ignore[attr-defined]
    view = info.view or {}
    names = {int(s): seat_name(info.table, int(s)) for s in view.get("seats") or []}
    return {move_label(m, view, names) for m in info.legal_moves}


async def test_hint_button_and_command_give_the_bots_move_privately_in_words(
    world: World,
) -> None:
    table_id, thread = await _start_for_two(world, "tock", hints=True)
    assert "hints on" in world.lobby(table_id).text
    board = world.newest_board(thread)  # type: ignore[arg-type]
    assert "Hints are on" in board.text
    player, _other = await _seat_in_turn(world, table_id)
    hand = await open_prompt(world, player, board, "Show my hand")  # type: ignore[arg-type]
    result = await player.click(hand, label="Hint", wait=False)  # type: ignore[attr-defined]
    answer = await world.wait(
        lambda: [m for m in result.visible_to(player) if "would play" in m.text],
        what="(no hint)",
    )
    assert all(m.ephemeral for m in answer)
    text = answer[0].text
    move = _MOVE.search(text)
    assert move is not None, text
    assert move["move"] in await _labels_of(world, table_id, player)
    assert ": it " in text, "a reason follows the move"
    # The slash command says the same thing.
    by_command = await player.slash(world.channel, "table hint", table=table_id)  # type: ignore[attr-defined]
    assert "would play" in private_text(by_command, player)  # type: ignore[arg-type]
    # Asking changed nothing: no board was posted, the same player is still to act.
    assert world.newest_board(thread).id == board.id  # type: ignore[arg-type]


async def test_hint_refused_out_of_turn_and_to_spectators(world: World) -> None:
    table_id, _thread = await _start_for_two(world, "tock", hints=True)
    _player, other = await _seat_in_turn(world, table_id)
    waiting = await other.slash(world.channel, "table hint", table=table_id)  # type: ignore[attr-defined]
    assert "when it is your turn" in private_text(waiting, other)  # type: ignore[arg-type]
    spectator = await world.carol.slash(world.channel, "table hint", table=table_id)
    assert "Only a player seated" in private_text(spectator, world.carol)


async def test_hint_refused_without_hints_and_no_hint_button(world: World) -> None:
    table_id, thread = await _start_for_two(world, "tock")
    assert "hints on" not in world.lobby(table_id).text
    board = world.newest_board(thread)  # type: ignore[arg-type]
    assert "Hints are on" not in board.text
    player, _other = await _seat_in_turn(world, table_id)
    refused = await player.slash(world.channel, "table hint", table=table_id)  # type: ignore[attr-defined]
    assert "without hints" in private_text(refused, player)  # type: ignore[arg-type]
    hand = await open_prompt(world, player, board, "Show my hand")  # type: ignore[arg-type]
    labels = [c.get("label") for c in hand.buttons]
    assert "Hint" not in labels


async def test_carcassonne_hint_names_the_tile_placement(world: World) -> None:
    table_id, _thread = await _start_for_two(world, "carcassonne", hints=True)
    player, _other = await _seat_in_turn(world, table_id)
    answer = await player.slash(world.channel, "table hint", table=table_id)  # type: ignore[attr-defined]
    text = private_text(answer, player)  # type: ignore[arg-type]
    assert "would play" in text
    # The cell by its number on the placement image, the turn in words, no coordinates.
    turned = "as drawn|turned right|upside down|turned left"
    assert re.search(rf"\*\*a tile with .+ on cell \d+, ({turned}) — ", text), text
    assert "°" not in text, text
    assert "(" not in text.partition("—")[0], text
