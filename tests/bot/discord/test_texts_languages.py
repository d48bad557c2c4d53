"""The words of the Discord layer in German and Hungarian, as pure functions."""

from __future__ import annotations

from bot.discord_ui.publisher import turn_line, update_text
from bot.discord_ui.texts import lobby_text, move_label
from bot.effects import PublicUpdate
from bot.table_model import Phase, Seat, TableRecord
from tests.bot.discord.sample_board import NAMES, VIEW


def _table(**changes: object) -> TableRecord:
    seats = (
        Seat(0, user_id=11, name="alice"),
        Seat(1, name="Bot 2 (easy)", bot_level="easy"),
        Seat(2),
        Seat(3, user_id=14, name="dave", left=True),
    )
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        game="tock",
        options={"game_type": "2v2", "seven": "split", "quick_start": False},
        seed=1,
        host_id=11,
        seats=seats,
        players=4,
        turn_time=300,
    )
    return record.with_changes(**changes) if changes else record


def test_move_labels_in_german_and_hungarian() -> None:
    assert move_label("K:E", VIEW, NAMES, "de") == "K: Figur ins Spiel bringen"
    assert move_label("Q:r17-r29", VIEW, NAMES, "de") == "D: Figur auf 17 → 29"
    assert move_label("J:r30<>r40", VIEW, NAMES, "hu") == "B: csere: a te 30 ↔ Bob: 40"
    assert move_label("X=7:r17-r24", VIEW, NAMES, "de") == (
        "Joker als 7: Figur auf 17 → 24 (7 Schritte)"
    )
    assert move_label("3:r17-h0.2", VIEW, NAMES, "hu") == "3: bábu: 17 → otthon 2"
    assert move_label("F", VIEW, NAMES, "de").startswith("Aussetzen")


def test_the_lobby_in_german() -> None:
    text = lobby_text(_table(), "de")
    assert text.startswith("**Tock**-Tisch #7 — Gastgeber <@11>")
    assert "4 Spieler · Spielart: 2 gegen 2 · Sieben: aufteilen · Zugzeit: 5 Min." in text
    assert "🤖 Bot 2 (leicht) — Team B" in text
    assert "3. *frei* — Team A" in text
    assert "dave (gegangen)" in text
    assert text.endswith(
        "Warten auf Spieler. Tretet bei, fügt Bots hinzu, und der Gastgeber startet das Spiel."
    )


def test_whose_turn_in_the_servers_language() -> None:
    table = _table(phase=Phase.PLAYING)
    update = PublicUpdate(7, "action", "", 3, view={"phase": "play"}, to_act=(0,))
    assert turn_line(table, update, "hu") == ("Következik: <@11>.", [11])
    over = PublicUpdate(7, "finished", "", 4, finished=True, winners=(0, 2))
    assert turn_line(table, over, "de")[0] == "🏆 Spielende — Sieg für alice, Spieler 3!"


def test_what_happened_is_told_again_from_the_events() -> None:
    events = (
        {"kind": "play", "seat": 0, "data": {"card": "K", "move": "K:E"}, "text": "Red plays K:E."},
        {
            "kind": "bring_out",
            "seat": 0,
            "data": {"colour": 0, "to": "r0"},
            "text": "Red brings a pawn out onto r0.",
        },
    )
    english = "alice: Red plays K:E. Red brings a pawn out onto r0. Game over: alice won."
    update = PublicUpdate(7, "action", english, 5, events=events)
    assert update_text(_table(), update, "en") == english
    assert update_text(_table(), update, "de") == (
        "alice: Rot spielt K:E. Rot bringt eine Figur auf r0 ins Spiel. Spielende: Sieg für alice."
    )
    lobby = PublicUpdate(7, "lobby", "bob joined (seat 2). alice is the host now.", 1)
    assert update_text(_table(), lobby, "hu") == (
        "bob csatlakozott (2. hely). Mostantól alice a házigazda."
    )
    unknown = PublicUpdate(7, "action", "Something new happened.", 6)
    assert update_text(_table(), unknown, "de") == "Something new happened."
