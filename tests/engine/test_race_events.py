"""Events carried by new states (engine.protocol.Event), and the Dog side of the protocol."""

from __future__ import annotations

from typing import Any

from engine import dog, tock
from tests.engine.test_tock_helpers import load


def _kinds(state: Any) -> list[str]:
    return [e.kind for e in state.events]


def test_move_event_has_the_path_and_capture_the_location() -> None:
    state = load(pawns={"0": ["r10"], "1": ["r13"]}, hands={"0": ["3", "2"]}, turn=0)
    new = tock.apply(state, "3:r10-r13")
    move = next(e for e in new.events if e.kind == "move")
    assert move.data["path"] == ["r11", "r12", "r13"]
    capture = next(e for e in new.events if e.kind == "capture")
    assert capture.seat == 1
    assert capture.data["at"] == "r13"
    assert all(e.public for e in new.events)
    assert state.events == ()


def test_seven_burns_each_report_a_capture() -> None:
    state = load(pawns={"0": ["r3"], "1": ["r8"], "2": ["r5"]}, hands={"0": ["7", "2"]}, turn=0)
    new = tock.apply(state, "7:r3-r10")
    assert sorted(e.data["at"] for e in new.events if e.kind == "capture") == ["r5", "r8"]


def test_bring_out_swap_ban_discard_events() -> None:
    state = load(pawns={"0": ["r30"], "1": ["r40"]}, hands={"0": ["K", "J", "10"], "1": ["2", "3"]})
    assert "bring_out" in _kinds(tock.apply(state, "K:E"))
    swap = tock.apply(state, "J:r30<>r40")
    assert next(e for e in swap.events if e.kind == "swap").data == {
        "a": "r30",
        "b": "r40",
        "colours": [0, 1],
    }
    ban = tock.apply(state, "10:r30-r40")
    assert "ban" in _kinds(ban)
    assert "discard" in _kinds(tock.apply(ban, "2:D"))


def test_hand_over_deal_and_game_over_events() -> None:
    state = load(pawns={"0": ["r10"]}, hands={"0": ["2"]}, turn=0)
    kinds = _kinds(tock.apply(state, "2:r10-r12"))
    assert kinds.index("hand_over") < kinds.index("deal")
    end = load(pawns={"0": ["r69", "h0.2", "h0.3", "h0.4"]}, hands={"0": ["2"]}, turn=0)
    assert "game_over" in _kinds(tock.apply(end, "2:r69-h0.1"))


def test_dog_fold_event_and_folded_seat_is_skipped() -> None:
    state = dog.from_position(
        {
            "game": "dog",
            "pawns": {"1": ["r20"]},
            "hands": {"0": ["7", "Q"], "1": ["2", "3"], "2": ["5"]},
            "turn": 0,
        }
    )
    folded = dog.apply(state, "F")
    assert "fold" in _kinds(folded)
    pos = dog.to_position(folded)
    assert pos["folded"] == [0]
    assert pos["discard"][-2:] == ["7", "Q"]
    blue = dog.apply(folded, "2:r20-r22")
    assert dog.to_position(blue)["turn"] == 2
    yellow = dog.apply(blue, "F")  # a 5 and no pawn out: Yellow folds too
    assert dog.to_position(yellow)["turn"] == 1  # seat 0 folded and is skipped


def test_dog_exchange_received_card_is_private() -> None:
    state = dog.new_game(4, {}, 5)
    for seat in range(4):
        state = dog.apply(state, dog.legal_moves(state, seat)[0])
    received = [e for e in state.events if e.kind == "exchange_received"]
    assert len(received) == 4
    assert all(not e.public for e in received)
    for event in received:
        view = dog.view(state, event.seat)
        assert view["received"] == event.data["card"]
        others = dog.view(state, (event.seat + 1) % 4)["events"]
        assert all(e["seat"] != event.seat for e in others if e["kind"] == "exchange_received")


def test_dog_sample_state_keeps_the_viewers_moves() -> None:
    state = dog.new_game(6, {"ruleset": "braendi"}, 8)
    for seat in range(6):
        state = dog.apply(state, dog.legal_moves(state, seat)[-1])
    for _ in range(5):
        state = dog.apply(state, dog.legal_moves(state)[0])
    seat = state.turn
    view = dog.view(state, seat)
    for s in range(3):
        sample = dog.sample_state(view, s)
        assert {str(m) for m in dog.legal_moves(sample)} == {str(m) for m in dog.legal_moves(state)}
