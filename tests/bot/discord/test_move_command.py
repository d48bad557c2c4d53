"""``/move``: the typed path, with autocomplete over the caller's own legal moves in words."""

from __future__ import annotations

from bot.discord_ui.race_prompts import _labels
from bot.model.effects import PrivateInfo
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import to_act
from tests.bot.discord.test_lobby import start_for_two
from tests.bot.discord.test_refusals import start_tock_against_a_bot


def _words(info: PrivateInfo) -> list[str]:
    """Each legal move in the words its button says."""
    return [choice.text for choice in _labels(info, list(info.legal_moves), "X")]


async def test_autocomplete_lists_the_callers_moves_in_words_and_plays_one(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    info = await world.desk.service.private_info(table_id, world.alice.id)
    choices = await world.alice.autocomplete(thread, "move", "move", "")
    assert [c["name"] for c in choices] == _words(info)[:25]
    assert all(":" not in c["name"].split(": ", 1)[1] for c in choices), "words, no notation"
    # Typing narrows the list.
    word = choices[0]["name"].split()[-1]
    narrowed = await world.alice.autocomplete(thread, "move", "move", word)
    assert narrowed
    assert all(word.casefold() in c["name"].casefold() for c in narrowed)
    # Someone not seated is offered nothing (their answer is theirs alone: autocomplete).
    assert await world.bob.autocomplete(thread, "move", "move", "") == []

    played = await world.alice.slash(thread, "move", move=choices[0]["value"])
    assert f"You played **{choices[0]['name']}**" in private_text(played, world.alice)
    log = await world.desk.service.storage.load_log(table_id)
    assert log[0].seat == 0
    assert log[0].text == info.legal_moves[0]
    # The same value again is from a turn that is over: refused privately, nothing played.
    again = await world.alice.slash(thread, "move", move=choices[0]["value"])
    assert "The game moved on meanwhile" in private_text(again, world.alice)
    # A value someone else was offered (or made up) is refused privately too.
    foreign = await world.bob.slash(thread, "move", move=choices[0]["value"])
    assert "not seated" in private_text(foreign, world.bob)
    made_up = await world.alice.slash(thread, "move", move="fly to the moon")
    assert "not one of your moves" in private_text(made_up, world.alice)
    assert len(await world.desk.service.storage.load_log(table_id)) == len(log)


async def test_a_move_typed_in_words_or_notation_is_played(world: World) -> None:
    table_id, thread = await start_tock_against_a_bot(world, seed=5)
    info = await world.desk.service.private_info(table_id, world.alice.id)
    words = _words(info)[-1]
    played = await world.alice.slash(thread, "move", move=words.upper())
    assert "You played" in private_text(played, world.alice)
    log = await world.desk.service.storage.load_log(table_id)
    assert log[0].text == info.legal_moves[-1]


async def test_carcassonne_placements_with_figures_can_be_typed(world: World) -> None:
    table_id, thread = await start_for_two(world, "carcassonne", seed=3)
    board = world.newest_board(thread)
    user = to_act(board, [world.alice, world.bob])[0]
    waiting = world.bob if user is world.alice else world.alice
    choices = await user.autocomplete(thread, "move", "move", "")
    assert choices
    assert all(c["name"].startswith("Cell ") for c in choices), choices
    assert any("No figure" in c["name"] for c in choices)
    assert await waiting.autocomplete(thread, "move", "move", "") == [], "not their turn"
    figure = next(c for c in choices if "No figure" not in c["name"])
    placed = await user.slash(thread, "move", move=figure["value"])
    assert "You placed" in private_text(placed, user)
    log = await world.desk.service.storage.load_log(table_id)
    assert log[-1].seat is not None
