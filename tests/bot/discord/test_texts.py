"""Moves and cards in words, as the buttons show them."""

from __future__ import annotations

from bot.discord_ui.texts import card_of_move, declared_of_move, move_label
from tests.bot.discord.sample_board import NAMES, VIEW


def test_labels_in_words() -> None:
    """Places are counted from the pawn owner's start, as players count them; no notation."""
    assert move_label("K:E", VIEW, NAMES) == "K: bring a pawn out"
    assert move_label("Q:r17-r29", VIEW, NAMES) == "Q: your pawn 17 → 29 fields past your start"
    assert move_label("J:r30<>r40", VIEW, NAMES) == (
        "J: swap your pawn (30 fields past your start) with Bob's pawn (22 fields past its start)"
    )
    assert move_label("9:D", VIEW, NAMES) == "9: discard"
    assert move_label("F", VIEW, NAMES).startswith("Fold")
    assert move_label("K:E1", VIEW, NAMES) == "K: bring out a pawn of Bob"
    assert move_label("3:r17-h0.2", VIEW, NAMES) == (
        "3: your pawn 17 fields past your start → home 2"
    )
    assert move_label("X=7:r17-r24", VIEW, NAMES) == (
        "Joker as 7: your pawn 17 → 24 fields past your start (7 steps)"
    )
    assert move_label("7:r17-r18,r30-r36", VIEW, NAMES) == (
        "7: your pawn 17 → 18 fields past your start (1 step) and "
        "your pawn 30 → 36 fields past your start (6 steps)"
    )
    assert (
        move_label("r40-r42", VIEW, NAMES) == "Bob's pawn 22 → 24 fields past its start (2 steps)"
    )


def test_labels_say_what_a_move_does() -> None:
    capture = [{"kind": "capture", "seat": 1, "data": {}}]
    ban = [{"kind": "ban", "seat": 1, "data": {}}]
    assert move_label("Q:r17-r29", VIEW, NAMES, events=capture).endswith(
        " — sends Bob's pawn back to its kennel"
    )
    assert move_label("10:r17-r27", VIEW, NAMES, events=ban).endswith(" — Bob must then discard")


def test_a_seven_that_sends_two_pawns_of_one_player_back_says_so_once() -> None:
    twice = [{"kind": "capture", "seat": 1, "data": {}}] * 2
    label = move_label("7:r17-r18,r30-r36", VIEW, NAMES, events=twice)
    assert label.endswith(" — sends 2 of Bob's pawns back to their kennel"), label
    assert label.count("Bob") == 1, label


def test_card_of_move() -> None:
    assert card_of_move("10:r1-r11") == "10"
    assert card_of_move("X=A:E") == "X"
    assert declared_of_move("X=A:E") == "A"
    assert card_of_move("G:Q") == "Q"
    assert card_of_move("F") is None
    assert card_of_move("r1-r3") is None


def test_lobby_lists_every_seat_with_teams_and_free_places() -> None:
    from bot.discord_ui.texts import lobby_text
    from bot.model.table import Phase, Seat, TableRecord

    lobby = TableRecord(
        id=3,
        guild_id=1,
        channel_id=2,
        game="tock",
        options={"game_type": "2v2"},
        seed=1,
        host_id=10,
        players=4,
        seats=(Seat(0, 10, "alice"), Seat(1), Seat(2, bot_level="easy", name="Bot 3"), Seat(3)),
    )
    lines = lobby_text(lobby).splitlines()
    assert "1. alice — team 1" in lines
    assert "2. *free* — team 2" in lines
    assert "3. 🤖 Bot 3 (easy) — team 1" in lines
    # In play, the seats are the engine's (Tock with 2 players does not use seats 0 and 1).
    playing = lobby.with_changes(
        phase=Phase.PLAYING,
        players=2,
        options={},
        seats=(Seat(0, 10, "alice"), Seat(3, bot_level="easy", name="Bot 2")),
    )
    text = lobby_text(playing)
    assert "*free*" not in text
    assert "2. 🤖 Bot 2 (easy)" in text
