"""The live page in a real headless Chromium against the stub server (docs/live.md).

A spectator sees the board and follows moves made elsewhere; a player signed in through the
Activity (the test stands in for Discord's client and OAuth) plays a Tock 7 split, a Jack swap
and a Carcassonne tile with a figure by clicking; a spectator's page never shows a hand.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import engine.tock as tock
from tests.web.client.activity import activity_query, parent_page
from tests.web.client.conftest import FIGURE_SPOTS, SPOT_BOXES, open_page, overlapping_spots
from tests.web.client.stub import Stub, StubTable, play_until

pytestmark = pytest.mark.slow


def tock_position(hand: list[str], pawns: dict[str, list[str]]) -> dict[str, Any]:
    """A Tock position: seat 0 to play with ``hand``, the pawns as given."""
    position = json.loads(json.dumps(tock.to_position(tock.new_game(4, {}, 1))))
    draw = position["draw"] + position["hands"]["0"]
    for card in hand:
        draw.remove(card)
    position.update(draw=draw, pawns=pawns, turn=0)
    position["hands"]["0"] = hand
    return position


def pawn_positions(page: Any, seat: int) -> list[str]:
    """Where the board draws ``seat``'s pawns."""
    return sorted(
        page.eval_on_selector_all(f".pawn[data-seat='{seat}']", "ns => ns.map(n => n.dataset.pos)")
    )


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('app').dataset.version) >= {version}", timeout=5000
    )


def sign_in_page(
    browser: Any,
    base: str,
    stub: Stub,
    table: StubTable,
    seat: int,
    errors: list[str],
    width: int = 1200,
) -> tuple[Any, Any]:
    """The Activity: a parent page playing Discord's client around the live page; the player
    of ``seat`` signs in with an OAuth2 code the stub's token route knows. Returns (parent
    page, the live page's frame) once the seated player's hand shows."""
    session = f"session-{table.number}-{seat}"
    code = f"code-{table.number}-{seat}"
    table.users[session] = seat
    stub.codes[code] = (session, table.number)
    stub.extra_pages[f"parent-{table.number}.html"] = parent_page(
        f"/{activity_query()}",
        code=code,
        user_id=f"10{seat}",
        username=f"player{seat}",
        client_id=stub.client_id,
    )
    page = open_page(browser, f"{base}/test/parent-{table.number}.html", errors, width=width)
    frame = page.frame_locator("#activity")
    frame.locator("#you").wait_for(state="visible", timeout=10000)
    return page, frame


def click_path(frame: Any, stub: Stub, path: list[str]) -> list[str]:
    """Click the targets of ``path`` one by one (each must be lit first) until the page sends
    a move; returns the path it sent."""
    sent_before = sum(1 for m in stub.received if m.get("type") == "move")
    for target in path:
        locator = frame.locator(f"[data-target='{target}']").first
        locator.wait_for(timeout=5000)
        locator.click()
        moves = [m for m in stub.received if m.get("type") == "move"]
        deadline = time.monotonic() + 0.5
        while len(moves) == sent_before and time.monotonic() < deadline:
            time.sleep(0.05)
            moves = [m for m in stub.received if m.get("type") == "move"]
        if len(moves) > sent_before:
            return list(moves[-1]["path"])
    raise AssertionError(f"no move sent after clicking {path}")


def test_spectator_follows_a_table_live(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    table = server.add_table("tock", 4, 7)
    play_until(table, lambda t: len(t.moves) >= 12)
    page = open_page(browser, f"{base}/live/table/{table.number}", page_errors)
    page.wait_for_selector(".race-board .pawn")
    assert page.locator(".race-board .pawn").count() == 16
    assert page.locator("#title").inner_text() == table.message(None)["labels"]["title"]
    assert page.locator("#seats li").count() == 4
    assert page.locator("#since li").count() == 4
    # A move made elsewhere (through Discord) shows within a moment.
    version = table.version
    seat = min(tock.seats_to_act(table.state))
    move = next(
        str(m) for m in tock.legal_moves(table.state, seat) if ":r" in str(m) or ":E" in str(m)
    )
    before = pawn_positions(page, seat)
    server.move_elsewhere(table.number, move)
    wait_version(page, version + 1)
    assert pawn_positions(page, seat) != before
    # The newest move is the strongest arrow, numbered after the earlier ones.
    assert page.locator(".layer-arrows .arrow.newest").count() >= 1
    assert page.locator("#status").inner_text() == table.message(None)["status"]
    # A spectator never sees a hand or choices, and says no session in its hello.
    assert page.locator("#you").is_hidden()
    assert page.locator("#hand button").count() == 0
    hello = next(m for m in server.received if m["type"] == "hello")
    assert hello["session"] is None
    assert hello["table"] == table.number
    assert page.evaluate("() => window.poeppelLive.state.you") is None
    assert not page_errors


def test_player_plays_a_tock_seven_split_through_the_activity(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    pawns = {
        "0": ["r2", "r20", "k0", "k0"],
        "1": ["r30", "k1", "k1", "k1"],
        "2": ["k2"] * 4,
        "3": ["k3"] * 4,
    }
    table = server.add_table("tock", 4, 1, position=tock_position(["7", "J", "2", "5", "8"], pawns))
    page, frame = sign_in_page(browser, base, server, table, 0, page_errors)
    # The SDK's handshake carried the client id; authorize asked for a code, authenticate
    # got the token the server answered.
    log = page.evaluate("() => window.rpcLog")
    assert log[0]["opcode"] == 0
    assert log[0]["client_id"] == server.client_id
    authorize = next(entry for entry in log if entry["cmd"] == "AUTHORIZE")
    assert authorize["args"]["response_type"] == "code"
    assert authorize["args"]["scope"] == ["identify", "guilds"]
    authenticate = next(entry for entry in log if entry["cmd"] == "AUTHENTICATE")
    assert authenticate["args"]["access_token"] == "user-token-session-1-0"
    assert next(m for m in server.received if m["type"] == "hello")["session"] == "session-1-0"
    # Only the playable cards are lit; the 7 first, then the pawn on r2 and three steps.
    assert frame.locator("#hand button.lit").count() == 5
    frame.locator("[data-target='card:7']").click()
    lit = sorted(
        frame.locator(".race-board .target").evaluate_all("ns => ns.map(n => n.dataset.target)")
    )
    assert lit == ["pawn:r2", "pawn:r20"]
    # The second pawn first (the options list it second): four steps of r20, and the rest
    # of the 7 is forced (r2 three steps), so the move goes without another click.
    sent = click_path(frame, server, ["pawn:r20", "field:r24"])
    assert sent == ["card:7", "pawn:r2", "field:r5", "pawn:r20", "field:r24"]
    frame.locator("#notice").wait_for(state="visible", timeout=5000)
    frame.locator(".pawn[data-pos='r24']").wait_for(timeout=5000)
    assert frame.locator(".pawn[data-seat='0'][data-pos='r5']").count() == 1
    assert not page_errors


def test_player_swaps_with_a_jack_by_clicking(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    pawns = {
        "0": ["r2", "r20", "k0", "k0"],
        "1": ["r30", "k1", "k1", "k1"],
        "2": ["k2"] * 4,
        "3": ["k3"] * 4,
    }
    table = server.add_table("tock", 4, 1, position=tock_position(["7", "J", "2", "5", "8"], pawns))
    _page, frame = sign_in_page(browser, base, server, table, 0, page_errors)
    sent = click_path(frame, server, ["card:J", "pawn:r20", "pawn:r30"])
    assert sent == ["card:J", "pawn:r20", "pawn:r30"]
    frame.locator(".pawn[data-seat='0'][data-pos='r30']").wait_for(timeout=5000)
    assert frame.locator(".pawn[data-seat='1'][data-pos='r20']").count() == 1
    assert not page_errors


@pytest.mark.parametrize("width", [1200, 400])
def test_player_places_a_carcassonne_tile_with_a_figure(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str], width: int
) -> None:
    server, base = stub
    table = server.add_table("carcassonne", 2, 4)
    play_until(
        table,
        lambda t: (
            len(t.moves) >= 6 and t.message(0)["to_act"] == [0] and t.state_phase() == "place"
        ),
    )
    _page, frame = sign_in_page(browser, base, server, table, 0, page_errors, width=width)
    cells = frame.locator(".carcassonne-board .target[data-target^='cell:']")
    cells.first.wait_for(timeout=5000)
    # Take the cell whose options offer a figure on a city, road or field.
    you = table.message(0)["you"]
    cell = you["options"][0]["path"][0]
    frame.locator(f"[data-target='{cell}']").click()
    turns = frame.locator("#choices [data-target^='turn:']")
    if turns.count():
        turns.first.click()
    spot = frame.locator(FIGURE_SPOTS).first
    spot.wait_for(timeout=5000)
    boxes = frame.locator(FIGURE_SPOTS).evaluate_all(SPOT_BOXES)
    if width == 400:
        # On a phone the board zooms to the new tile: the spots are separate fingertip targets.
        assert all(box["zoomed"] for box in boxes)
        assert overlapping_spots(boxes) == []
    chosen = spot.get_attribute("data-target")
    spot.click()
    # The click's move reaches the stub over the socket a moment later.
    deadline = time.monotonic() + 5
    while not any(m.get("path") == [chosen] for m in server.received) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
    moves = [m for m in server.received if m["type"] == "move"]
    assert moves[-1]["path"] == [chosen]
    x, y = cell.split(":")[1].split(",")
    frame.locator(f".figure[data-seat='0'][data-cell='{x},{y}']").wait_for(timeout=5000)
    assert frame.locator(f".tile[data-cell='{x},{y}']").count() == 1
    assert frame.locator(".carcassonne-board.zoomed").count() == 0
    assert not page_errors


def test_after_the_game_the_replay_slider_goes_through_the_game(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    table = server.add_table("tock", 4, 7)
    play_until(table, lambda t: len(t.moves) >= 20)
    page = open_page(browser, f"{base}/live/table/{table.number}", page_errors, width=400)
    page.wait_for_selector(".race-board .pawn")
    assert page.locator("#replay-box").is_hidden()
    server.finish(table.number)
    page.locator("#replay-box").wait_for(timeout=5000)
    assert {"type": "replay"} in server.received
    assert page.locator("#replay-title").inner_text() == "Replay"
    # The first frame: every pawn in its kennel; the last: the board as it ended.
    page.click("#replay-buttons [data-step='first']")
    assert page.locator(".pawn[data-pos^='r']").count() == 0
    assert page.locator("#replay-step").inner_text() == f"1 / {len(table.frames)}"
    page.click("#replay-buttons [data-step='forward']")
    assert page.locator("#replay-step").inner_text() == f"2 / {len(table.frames)}"
    page.click("#replay-buttons [data-step='last']")
    assert page.locator(".pawn[data-pos^='r']").count() > 0
    assert not page_errors


def test_a_dog_player_passes_a_card_to_the_partner_by_clicking_it(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    table = server.add_table("dog", 4, 1)
    assert table.state_phase() == "exchange"
    _page, frame = sign_in_page(browser, base, server, table, 0, page_errors, width=400)
    # Every card of the hand may be passed: each is lit; one click passes it.
    hand = table.message(0)["you"]["hand"]
    assert frame.locator("#hand button.lit").count() == len(hand)
    token = hand[-1]["token"]
    frame.locator(f"#hand button[data-target='give:{token}']").click()
    frame.locator("#notice").wait_for(state="visible", timeout=5000)
    moves = [m for m in server.received if m["type"] == "move"]
    assert moves[-1]["path"] == [f"give:{token}"]
    # The pick shows in the hand; nothing more to choose until the exchange ends.
    frame.locator("#hand button.chosen").wait_for(timeout=5000)
    assert frame.locator("#hand button.lit").count() == 0
    assert not page_errors


def test_a_lit_pawn_can_be_chosen_with_the_keyboard(
    browser: Any, stub: tuple[Stub, str], page_errors: list[str]
) -> None:
    server, base = stub
    pawns = {
        "0": ["r2", "r20", "k0", "k0"],
        "1": ["r30"] + ["k1"] * 3,
        "2": ["k2"] * 4,
        "3": ["k3"] * 4,
    }
    table = server.add_table("tock", 4, 1, position=tock_position(["7", "J", "2", "5", "8"], pawns))
    _page, frame = sign_in_page(browser, base, server, table, 0, page_errors)
    frame.locator("[data-target='card:8']").focus()
    frame.locator("[data-target='card:8']").press("Enter")
    target = frame.locator(".race-board .target[data-target='pawn:r20']")
    assert target.get_attribute("role") == "button"
    target.focus()
    target.press("Enter")
    moves = [m for m in server.received if m["type"] == "move"]
    deadline = time.monotonic() + 5
    while not moves and time.monotonic() < deadline:
        time.sleep(0.05)
        moves = [m for m in server.received if m["type"] == "move"]
    assert moves[-1]["path"] == ["card:8", "pawn:r20", "field:r28"]
    assert not page_errors
