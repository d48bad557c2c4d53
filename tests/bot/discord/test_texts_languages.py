"""The words of the Discord layer in German and Hungarian, as pure functions."""

from __future__ import annotations

from bot.discord_ui.publisher import turn_line, update_text
from bot.discord_ui.texts import lobby_text, move_label
from bot.model.effects import PublicUpdate
from bot.model.table import Phase, Seat, TableRecord
from i18n.events import event_message
from i18n.message import joined, msg
from tests.bot.discord.sample_board import NAMES, VIEW


def _table(**changes: object) -> TableRecord:
    seats = (
        Seat(0, user_id=11, name="alice"),
        Seat(1, bot_level="easy", bot_number=2),
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
    assert move_label("Q:r17-r29", VIEW, NAMES, "de") == (
        "D: deine Figur 17 → 29 Felder nach deinem Start"
    )
    assert move_label("J:r30<>r40", VIEW, NAMES, "hu") == (
        "B: csere: saját bábu (30 mezővel a kezdőmeződ után) ↔ "
        "Bob bábuja (22 mezővel a kezdőmezője után)"
    )
    assert move_label("X=7:r17-r24", VIEW, NAMES, "de") == (
        "Joker als 7: deine Figur 17 → 24 Felder nach deinem Start (7 Schritte)"
    )
    assert move_label("3:r17-h0.2", VIEW, NAMES, "hu") == (
        "3: a bábud: 17 mezővel a kezdőmeződ után → a 2. otthonmeződ"
    )
    assert move_label("F", VIEW, NAMES, "de").startswith("Aussetzen")


def test_the_lobby_in_german() -> None:
    text = lobby_text(_table(), "de")
    assert text.startswith("**Tock**-Tisch #7 — Gastgeber <@11>")
    assert "4 Spieler · Spielart: 2 gegen 2 · Sieben: aufteilen · Zugzeit: 5 Min." in text
    assert "🤖 Bot 2 (leicht) — Team 2" in text
    assert "3. *frei* — Team 1" in text
    assert "dave (gegangen)" in text
    assert text.endswith(
        "Warten auf Spieler. Tretet bei, fügt Bots hinzu, und der Gastgeber startet das Spiel."
    )


def test_whose_turn_in_the_servers_language() -> None:
    table = _table(phase=Phase.PLAYING)
    update = PublicUpdate(
        7, "action", msg("table.moved", name="x"), 3, view={"phase": "play"}, to_act=(0,)
    )
    assert turn_line(table, update, "hu") == ("Következik: <@11>.", [11])
    over = PublicUpdate(
        7, "finished", msg("table.moved", name="x"), 4, finished=True, winners=(0, 2)
    )
    assert turn_line(table, over, "de")[0] == "🏆 Spielende — alice und Spieler 3 haben gewonnen!"
    alone = PublicUpdate(
        7, "finished", msg("table.moved", name="x"), 4, finished=True, winners=(0,)
    )
    assert turn_line(table, alone, "de")[0] == "🏆 Spielende — alice hat gewonnen!"


def test_what_happened_is_said_from_keys_in_every_language() -> None:
    events = (
        {"kind": "play", "seat": 0, "data": {"card": "K", "move": "K:E"}},
        {"kind": "bring_out", "seat": 0, "data": {"colour": 0, "to": "r0"}},
    )
    said = [event_message(e, game="tock") for e in events]
    message = msg("table.details", name="alice", details=joined(said))
    update = PublicUpdate(7, "action", message, 5, events=events)
    assert update_text(_table(), update, "en") == (
        "alice: Red plays a King. Red brings a pawn out onto its start field."
    )
    assert update_text(_table(), update, "de") == (
        "alice: Rot spielt einen König. Rot bringt eine Figur auf das Startfeld."
    )
    bot = _table().seat_label(1)
    lobby = PublicUpdate(
        7,
        "lobby",
        joined([msg("table.joined", name="bob", seat=2), msg("table.new_host", name=bot)]),
        1,
    )
    assert update_text(_table(), lobby, "hu") == (
        "bob csatlakozott (2. ülőhely). Mostantól a 2.\u00a0bot a házigazda."
    )
