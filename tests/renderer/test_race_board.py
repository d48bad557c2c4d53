"""Tock and Dog board images: determinism, pawns where the view says, marks a player reads."""

from __future__ import annotations

import pytest

import engine.dog as dog
import engine.tock as tock
from engine.protocol import InvalidOptions
from renderer import race_field_center, render_board
from renderer.race_layout import layout_for
from renderer.style import INK, seat_colour
from tests.renderer.pixels import close, decode, pixel
from tests.renderer.views import race_playout, race_view


def _pawn_body(view: dict, location: str) -> tuple[float, float]:
    """A point inside the pawn disc, clear of its letter and of neighbouring pawns.

    Pawns are a little wider than the field pitch, so neighbours on the ring overlap along
    the ring (and in a home lane along the lane): probe across that direction.
    """
    layout = layout_for(view)
    x, y = race_field_center(view, location)
    if location.startswith("k"):
        return x, y + layout.pawn_radius * 0.7
    dx, dy = x - layout.centre[0], y - layout.centre[1]
    norm = (dx * dx + dy * dy) ** 0.5
    if location.startswith("h"):
        dx, dy = -dy, dx
    # 0.8 of the radius: clear of the letter, which is large enough to read on a phone.
    d = layout.pawn_radius * 0.8
    return x + dx / norm * d, y + dy / norm * d


def test_same_view_gives_identical_bytes() -> None:
    view = race_view(pawns={"0": ["r5", "r30", "h0.1", "k0"], "1": ["r18*"]})
    assert render_board(view) == render_board(dict(view))


@pytest.mark.parametrize(
    ("game", "players", "location", "seat"),
    [
        ("tock", 4, "r40", 0),
        ("tock", 4, "h2.3", 2),
        ("tock", 2, "r71", 2),
        ("tock", 5, "r100", 4),
        ("dog", 4, "r63", 3),
        ("dog", 6, "h5.4", 5),
    ],
)
def test_pawn_is_drawn_in_its_seat_colour_on_its_field(
    game: str, players: int, location: str, seat: int
) -> None:
    view = race_view(game, players, pawns={str(seat): [location, f"k{seat}"]})
    image = decode(render_board(view))
    assert close(pixel(image, *_pawn_body(view, location)), seat_colour(seat))


def test_empty_field_and_empty_kennel_slot_show_no_pawn() -> None:
    view = race_view(pawns={"0": ["r40", "r41", "r42", "k0"]})
    image = decode(render_board(view))
    assert close(pixel(image, *_pawn_body(view, "r40")), seat_colour(0))
    assert not close(pixel(image, *_pawn_body(view, "r50")), seat_colour(0))
    # One pawn left in the kennel: slot 1 holds it, slot 2 is empty.
    assert close(pixel(image, *_pawn_body(view, "k0.1")), seat_colour(0))
    assert not close(pixel(image, *_pawn_body(view, "k0.2")), seat_colour(0))


def test_guarded_pawn_wears_a_black_ring_that_a_plain_pawn_lacks() -> None:
    view = race_view(pawns={"1": ["r18*"], "2": ["r36"]})
    image = decode(render_board(view))
    ring = layout_for(view).pawn_radius + 4.5
    for location, guarded in (("r18", True), ("r36", False)):
        cx, cy = race_field_center(view, location)
        centre = layout_for(view).centre
        # Probe towards the board centre, where no neighbouring field lies.
        dx, dy = centre[0] - cx, centre[1] - cy
        norm = (dx * dx + dy * dy) ** 0.5
        probe = pixel(image, cx + dx / norm * ring, cy + dy / norm * ring)
        assert close(probe, INK) is guarded


def test_viewer_seat_is_drawn_at_the_bottom() -> None:
    for viewer in (0, 1, 2, 3):
        view = race_view(viewer=viewer)
        start = race_field_center(view, f"r{18 * viewer}")
        layout = layout_for(view)
        assert start[1] > layout.centre[1] + layout.radius * 0.9


def test_last_move_path_is_drawn_between_the_fields_it_passed() -> None:
    events = [
        {
            "kind": "play",
            "seat": 3,
            "data": {"card": "10", "move": "10:r17-r27"},
            "text": "Green plays 10:r17-r27.",
            "public": True,
        },
        {
            "kind": "move",
            "seat": 3,
            "data": {
                "colour": 3,
                "from": "r17",
                "to": "r27",
                "path": [f"r{i}" for i in range(18, 28)],
            },
            "text": "",
            "public": True,
        },
    ]
    quiet = race_view(pawns={"3": ["r27"]})
    moved = race_view(pawns={"3": ["r27"]}, events=events)
    a, b = race_field_center(moved, "r21"), race_field_center(moved, "r22")
    middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    before = pixel(decode(render_board(quiet)), *middle)
    after = pixel(decode(render_board(moved)), *middle)
    assert not close(before, after)
    # The path is a darker shade of the mover's colour (green), not another seat's.
    assert after[1] > after[0]
    assert after[1] > after[2]


def test_capture_is_marked_beside_the_field() -> None:
    capture = {
        "kind": "capture",
        "seat": 1,
        "data": {"at": "r30", "by": 0, "to": "k1"},
        "text": "Blue's pawn on r30 goes back to its kennel.",
        "public": True,
    }
    plain = decode(render_board(race_view(pawns={"0": ["r30"]})))
    marked = decode(render_board(race_view(pawns={"0": ["r30"]}, events=[capture])))
    view = race_view()
    x, y = race_field_center(view, "r30")
    centre = layout_for(view).centre
    d = layout_for(view).pawn_radius * 2.1
    dx, dy = x - centre[0], y - centre[1]
    norm = (dx * dx + dy * dy) ** 0.5
    mark = (x + dx / norm * d, y + dy / norm * d)
    assert pixel(plain, *mark) != pixel(marked, *mark)


def test_highlighted_locations_are_ringed() -> None:
    view = race_view(pawns={"0": ["r10"]})
    plain = decode(render_board(view))
    ringed = decode(render_board(view, highlight=["r10"]))
    assert plain.tobytes() != ringed.tobytes()


@pytest.mark.parametrize("module", [tock, dog], ids=["tock", "dog"])
def test_every_player_count_and_option_value_renders(module) -> None:
    for players in module.PLAYER_COUNTS:
        state = module.new_game(players, {}, 1)
        assert decode(render_board(module.view(state, None))).width >= 900
    for spec in module.OPTIONS:
        for value in spec.choices or (spec.default,):
            # The largest player count that accepts the value (2v2 needs 4, 2v2v2 needs 6).
            for players in sorted(module.PLAYER_COUNTS, reverse=True):
                try:
                    state = module.new_game(players, {spec.name: value}, 1)
                except InvalidOptions:
                    continue
                seat = state_seat(module, state)
                assert decode(render_board(module.view(state, seat))).width >= 900
                break
            else:
                pytest.fail(f"no player count accepts {spec.name}={value!r}")


def state_seat(module, state) -> int:
    """Some seat in use of ``state``."""
    return int(module.view(state, None)["seats"][-1])


@pytest.mark.parametrize(("module", "players"), [(tock, 4), (tock, 6), (dog, 4), (dog, 6)])
def test_random_playout_views_render_with_pawns_where_the_view_says(module, players) -> None:
    _, views = race_playout(module, players, {}, seed=players, steps=40)
    for view in views[::8]:
        image = decode(render_board(view))
        for seat_text, locations in view["pawns"].items():
            for location in locations:
                if location.startswith("r"):
                    body = _pawn_body(view, location)
                    assert close(pixel(image, *body), seat_colour(int(seat_text)), 40)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        render_board({"game": "chess"})


def test_private_parts_of_a_view_never_change_the_board() -> None:
    """The board may be posted for everyone: the viewer's cards and pick are not drawn."""
    public = race_view("dog", 4, phase="exchange", exchanged=[1], to_act=[0, 2, 3])
    private = dict(public, hand=["A", "7", "X"], my_pick="X", received="K")
    assert render_board(public) == render_board(private)


def test_exchange_shows_who_has_picked() -> None:
    nobody = race_view("dog", 4, phase="exchange", exchanged=[], to_act=[0, 1, 2, 3])
    blue = race_view("dog", 4, phase="exchange", exchanged=[1], to_act=[0, 2, 3])
    assert render_board(nobody) != render_board(blue)


def test_ban_fold_dealer_and_winner_are_shown() -> None:
    base = race_view(pawns={"0": ["r5"]})
    for change in (
        {"banned": True},
        {"dealer": 1},
        {"turn": 2, "to_act": [2]},
        {"finished": True, "phase": "finished", "winners": [0], "winner": [0], "to_act": []},
    ):
        assert render_board(dict(base, **change)) != render_board(base), change
    dog_view = race_view("dog", 4)
    assert render_board(dict(dog_view, folded=[3])) != render_board(dog_view)


def test_pawns_moved_in_a_pending_seven_are_badged() -> None:
    seven = {"card": "7", "colour": 0, "left": 4, "moved": ["r13"]}
    base = race_view(pawns={"0": ["r13", "r20"]})
    pending = dict(base, seven=seven)
    near = race_field_center(base, "r13")
    badge_area = (near[0] - 40, near[1] - 40, near[0] + 40, near[1] + 40)
    before = decode(render_board(base)).crop(badge_area).tobytes()
    after = decode(render_board(pending)).crop(badge_area).tobytes()
    assert before != after
