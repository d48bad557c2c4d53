"""The game protocol of :mod:`engine.protocol` for Carcassonne, plus helpers for the UI."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.carcassonne import rules
from engine.carcassonne.notation import (
    FIGURE_KINDS,
    NONE,
    Action,
    Move,
    Placement,
    Turn,
    canonical_placement,
    parse_syntax,
    rename_action,
)
from engine.carcassonne.setup import (
    DEFAULT_NAMES,
    check_draws,
    check_names,
    check_setup_header,
    initial_state,
    land_tiles,
    make_options,
    river_tiles,
)
from engine.carcassonne.state import SEG_BITS, Figure, State
from engine.carcassonne.tiles import GOODS, MONASTERY, SEGMENT_KINDS, TILES, segment_anchor
from engine.protocol import Event, IllegalMove, InvalidOptions, InvalidPosition, Outcome

# -- creating games ----------------------------------------------------------------------------


def new_game(players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
    """A new game of ``players`` seats; the first player has drawn the first tile."""
    opts = make_options(options)
    try:
        names = check_names(players)
    except InvalidPosition as exc:
        raise InvalidOptions(str(exc)) from exc
    state = initial_state(opts, names, seed, None, None)
    rules.draw(state)
    return state


def from_setup(data: Mapping[str, Any]) -> State:
    """Build a state from a CN-6 set-up; raise InvalidPosition naming the first bad entry."""
    options, names, seed, start = check_setup_header(data)
    draws = check_draws(data["draws"], options) if "draws" in data else None
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidPosition("'moves' must be a list of turns")
    state = initial_state(options, names, seed, start, draws)
    rules.draw(state)
    for i, text in enumerate(moves):
        if not isinstance(text, str):
            raise InvalidPosition(f"moves[{i}]: a move must be text, got {text!r}")
        try:
            move = parse_syntax(text)
        except IllegalMove as exc:
            raise InvalidPosition(f"moves[{i}] {text!r}: {exc}") from exc
        if not isinstance(move, Turn):
            raise InvalidPosition(f"moves[{i}] {text!r}: not a whole turn with its tile id")
        if move.action is None and i != len(moves) - 1:
            raise InvalidPosition(f"moves[{i}] {text!r}: only the last turn may omit its action")
        try:
            state = _apply_turn(state, move, allow_partial=True)
        except IllegalMove as exc:
            raise InvalidPosition(f"moves[{i}] {text!r}: {exc}") from exc
    return state


def to_setup(state: State) -> dict[str, Any]:
    """The CN-6.4 record of the game so far: replaying it gives the same position."""
    default_names = state.names == DEFAULT_NAMES[: state.players]
    record: dict[str, Any] = {
        "options": state.options.to_json(),
        "players": state.players if default_names else list(state.names),
        "seed": state.seed,
    }
    if state.start_player_given:
        record["start_player"] = state.start_player
    if state.draws_given is not None:
        record["draws"] = list(state.draws_given)
    moves = list(state.log)
    if state.pending is not None:
        moves.append(state.pending)
    record["moves"] = moves
    return record


# -- legal moves and applying them ---------------------------------------------------------


def legal_moves(state: State, seat: int | None = None) -> list[Move]:
    """The CN-4 list: placements in phase ``place``, figure actions in phase ``figure``."""
    if state.phase == "finished" or (seat is not None and seat != state.to_act):
        return []
    if state.phase == "place":
        return list(rules.placements(state))
    return list(rules.figure_actions(state))


def legal_placements(state: State) -> dict[tuple[int, int], list[int]]:
    """Cell -> canonical rotations (degrees) of the current tile, for the UI."""
    out: dict[tuple[int, int], list[int]] = {}
    if state.phase != "place":
        return out
    for p in rules.placements(state):
        out.setdefault((p.x, p.y), []).append(p.rot)
    return out


def figure_spots(state: State) -> list[dict[str, Any]]:
    """The segments of the tile just placed with the figure kinds allowed on each (phase figure).

    Each entry: ``{"segment": "city0", "kind": "city", "x": 0, "y": -1, "figures": [...],
    "anchor": [0.5, 0.15]}``; ``anchor`` is a point of the segment on the tile as placed
    (:func:`engine.carcassonne.tiles.segment_anchor`).
    """
    if state.phase != "figure":
        return []
    allowed: dict[str, list[str]] = {}
    for action in rules.figure_actions(state):
        if action.kind is not None and action.segment is not None:
            allowed.setdefault(action.segment, []).append(action.kind)
    tid, x, y, k = state.tiles[state.last_index()]
    return [
        {
            "segment": seg.name,
            "kind": SEGMENT_KINDS[seg.kind],
            "x": x,
            "y": y,
            "figures": allowed.get(seg.name, []),
            "anchor": list(segment_anchor(tid, 90 * k, seg.name)),
        }
        for seg in TILES[tid].segments
    ]


def _check_placement(state: State, placement: Placement) -> tuple[Placement, tuple[int, ...]]:
    tile = state.current
    assert tile is not None
    canon, renaming = canonical_placement(tile, placement)
    if not rules.is_legal_placement(state, canon):
        raise IllegalMove(f"{tile} cannot be placed at {placement}")
    return canon, renaming


def _why_not(state: State, action: Action) -> str:
    """A readable reason why ``action`` is not in the figure list."""
    seat = state.to_act
    assert seat is not None
    if action.kind not in FIGURE_KINDS or action.segment is None:
        return f"not a figure action: {action!r}"
    tid = state.tiles[state.last_index()][0]
    tt = TILES[tid]
    local = tt.segment_index(action.segment)
    if local < 0:
        return f"tile {tid} has no segment {action.segment}"
    kind = FIGURE_KINDS.index(action.kind)
    if state.supply[seat][kind] == 0:
        word = "big follower" if action.kind == "big" else action.kind
        return f"{state.names[seat]} has no {word} in supply"
    seg = tt.segments[local]
    if seg.kind == 2 and state.options.farms == "off":
        return "farms are off at this table: no figure goes on a field"
    if action.kind in ("builder", "pig"):
        return (
            f"a {action.kind} needs a feature holding your own follower"
            + (" that is not complete" if action.kind == "builder" else "")
            + f" and goes on a {'road or city' if action.kind == 'builder' else 'field'}"
        )
    return f"the feature of {action.segment} is already occupied"


def _check_action(state: State, action: Action) -> None:
    if action not in rules.figure_actions(state):
        raise IllegalMove(_why_not(state, action))


def _apply_turn(state: State, move: Turn, allow_partial: bool = False) -> State:
    if state.phase != "place":
        raise IllegalMove(f"a whole turn is only possible in phase place, not {state.phase}")
    if move.tile != state.current:
        raise IllegalMove(f"the current tile is {state.current}, not {move.tile}")
    if move.action is None and not allow_partial:
        raise IllegalMove("a whole turn needs its figure action ('none' to place nothing)")
    canon, renaming = _check_placement(state, move.placement)
    new = state.copy()
    rules.place(new, canon.x, canon.y, canon.rot // 90)
    if move.action is None:
        return new
    action = rename_action(move.tile, move.action, renaming)
    _check_action(new, action)
    rules.act(new, action)
    return new


def _apply_move(state: State, move: Move) -> State:
    if state.phase == "finished":
        raise IllegalMove("the game is over")
    if isinstance(move, Turn):
        return _apply_turn(state, move)
    if isinstance(move, Placement):
        if state.phase != "place":
            raise IllegalMove("the tile is placed: choose a figure action now (or 'none')")
        canon, _renaming = _check_placement(state, move)
        new = state.copy()
        rules.place(new, canon.x, canon.y, canon.rot // 90)
        return new
    if isinstance(move, Action):
        if state.phase != "figure":
            raise IllegalMove("place the tile first: a figure comes after the placement")
        _check_action(state, move)
        new = state.copy(share_board=True)
        rules.act(new, move)
        return new
    raise IllegalMove(f"not a Carcassonne move: {move!r}")


def _check_seat(state: State, seat: int | None) -> None:
    """Refuse a move announced for a seat that is not the one to act."""
    if seat is not None and seat not in seats_to_act(state):
        raise IllegalMove(f"it is not seat {seat}'s turn")


def apply(state: State, move: Move | str, seat: int | None = None) -> State:
    """The state after ``move`` (a Move or its text); raise IllegalMove, ``state`` unchanged.

    ``seat``, when given, must be the seat to act.
    """
    _check_seat(state, seat)
    if isinstance(move, str):
        move = parse_syntax(move)
    return _apply_move(state, move)


def parse_move(state: State, text: str, seat: int | None = None) -> Move:
    """Parse ``text`` into a legal move of ``state`` in canonical form (CN-3.2)."""
    _check_seat(state, seat)
    move = parse_syntax(text)
    _apply_move(state, move)  # raises IllegalMove with the reason if not legal
    tile = state.current
    assert tile is not None
    if isinstance(move, Placement):
        return canonical_placement(tile, move)[0]
    if isinstance(move, Turn):
        canon, renaming = canonical_placement(tile, move.placement)
        action = None if move.action is None else rename_action(tile, move.action, renaming)
        return Turn(move.tile, canon, action)
    return move


def to_position(state: State) -> dict[str, Any]:
    """The CN-5 position (JSON-able, normal form)."""
    figures = sorted(state.figures, key=lambda f: (f.y, f.x))
    finished = state.phase == "finished"
    return {
        "board": [{"tile": t, "x": x, "y": y, "rot": 90 * k} for t, x, y, k in state.tiles],
        "figures": [
            {"player": f.player, "kind": f.kind, "x": f.x, "y": f.y, "segment": f.segment}
            for f in figures
        ],
        "scores": list(state.scores),
        "supply": [dict(zip(FIGURE_KINDS, s, strict=True)) for s in state.supply],
        "goods": [dict(zip(GOODS, g, strict=True)) for g in state.goods],
        "tiles_left": state.tiles_left(),
        "current_tile": state.current,
        "phase": state.phase,
        "to_act": state.to_act,
        "extra_turn": state.extra_turn and not finished,
        "discarded": list(state.discarded),
        "finished": finished,
        "winners": list(state.winners),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: the whole position (nothing is hidden but the pile order).

    Besides the protocol keys, ``to_act`` is the protocol's sorted list; the CN-5 seat number
    is under ``player_to_act``. ``options`` and ``names`` help renderer and bots.
    """
    data = to_position(state)
    data["player_to_act"] = data["to_act"]
    data.update(
        game="carcassonne",
        viewer=seat,
        seats=list(range(state.players)),
        to_act=sorted(seats_to_act(state)),
        events=[e.to_json() for e in state.events if e.public or e.seat == seat],
        last_tiles={str(s): [c[0], c[1]] for s, c in sorted(state.last_tiles.items())},
        options=state.options.to_json(),
        names=list(state.names),
        left=sorted(state.left),
    )
    return data


def outcome(state: State) -> Outcome | None:
    """``None`` while the game runs, else the winners and scores."""
    if state.phase != "finished":
        return None
    return Outcome(tuple(state.winners), tuple(state.scores))


def seats_to_act(state: State) -> frozenset[int]:
    """The seat that owes a decision (none once finished)."""
    if state.phase == "finished" or state.to_act is None:
        return frozenset()
    return frozenset((state.to_act,))


def auto_action(state: State, seat: int) -> State:
    """House decision for an absent or timed-out player (the tile must be placed, K-3.2).

    In phase ``place``: the first legal placement in canonical order (CN-4.1) and no figure.
    In phase ``figure``: ``none``. A figure is never placed for an absent player.
    """
    if seat not in seats_to_act(state):
        raise IllegalMove(f"seat {seat} has nothing to do now")
    if state.phase == "place":
        first = rules.placements(state)[0]
        assert state.current is not None
        return _apply_turn(state, Turn(state.current, first, NONE))
    return _apply_move(state, NONE)


def leave(state: State, seat: int) -> State:
    """Mark ``seat`` as left; the table then only plays :func:`auto_action` for it."""
    if not 0 <= seat < state.players:
        raise IllegalMove(f"no seat {seat}")
    new = state.copy(share_board=True)
    new.left = state.left | {seat}
    new.events = (Event("left", seat, {}),)
    return new


# -- determinization for bots --------------------------------------------------------------


def sample_state(view_data: Mapping[str, Any], seed: int) -> State:
    """A full state matching ``view_data``, the unseen pile order drawn from ``seed``."""
    options = make_options(view_data.get("options", {}))
    names = tuple(view_data.get("names") or DEFAULT_NAMES[: len(view_data["seats"])])
    board = view_data["board"]
    state = State(
        options=options,
        names=names,
        seed=seed,
        start_player=0,
        start_player_given=False,
        draws_given=None,
        pile=(),
    )
    for entry in board:
        state.place_tile(entry["tile"], entry["x"], entry["y"], entry["rot"] // 90)
    figures = []
    for f in view_data["figures"]:
        index = state.cells[(f["x"], f["y"])]
        local = TILES[state.tiles[index][0]].segment_index(f["segment"])
        figures.append(
            Figure(
                f["player"], f["kind"], f["x"], f["y"], (index << SEG_BITS) + local, f["segment"]
            )
        )
    state.figures = tuple(figures)
    state.supply = tuple(
        (s["follower"], s["big"], s["builder"], s["pig"]) for s in view_data["supply"]
    )
    state.scores = tuple(view_data["scores"])
    state.goods = tuple((g["wine"], g["grain"], g["cloth"]) for g in view_data["goods"])
    state.discarded = tuple(view_data["discarded"])
    state.last_tiles = {int(s): (c[0], c[1]) for s, c in view_data.get("last_tiles", {}).items()}
    state.left = frozenset(view_data.get("left", ()))
    state.phase = view_data["phase"]
    state.to_act = view_data.get("player_to_act", None)
    state.extra_turn = bool(view_data["extra_turn"])
    state.winners = tuple(view_data["winners"])
    state.current = view_data["current_tile"]
    state.pile = tuple(_sample_pile(state, view_data, seed))
    if state.phase == "figure":
        _restore_figure_phase(state)
    elif state.current is not None:
        # The current tile is drawn: it sits before the pile position.
        state.pile = (state.current, *state.pile)
        state.pile_pos = 1
    return state


def _restore_figure_phase(state: State) -> None:
    """Rebuild the builder trigger of a placement made before the view was taken."""
    index = state.last_index()
    tid, x, y, k = state.tiles[index]
    seat = state.to_act
    assert seat is not None
    state.pending = f"{tid} {x},{y}@{90 * k}"
    base = index << SEG_BITS
    if not state.extra_turn:
        for fig in state.figures:
            if fig.kind == "builder" and fig.player == seat:
                root = state.find(fig.sid)
                state.extra_earned = any(
                    seg.kind in (0, 1) and state.find(base + i) == root
                    for i, seg in enumerate(TILES[tid].segments)
                    if seg.kind != MONASTERY
                )


def _sample_pile(state: State, view_data: Mapping[str, Any], seed: int) -> list[str]:
    """The unseen tiles, by counts, shuffled (river tiles first, then the lake, then land)."""
    left = int(view_data["tiles_left"])
    unseen = Counter(land_tiles(state.options))
    river = Counter([*river_tiles(), "R02"]) if state.options.river else Counter()
    seen = [t for t, _x, _y, _k in state.tiles[1:]] + list(state.discarded)
    if state.current is not None and state.phase == "place":
        seen.append(state.current)
    for t in seen:
        if river[t]:
            river[t] -= 1
        elif unseen[t]:
            unseen[t] -= 1
    rng = random.Random(seed)
    river_list = sorted((+river).elements())
    lake = ["R02"] if "R02" in river_list else []
    river_list = [t for t in river_list if t != "R02"]
    rng.shuffle(river_list)
    land = sorted((+unseen).elements())
    rng.shuffle(land)
    pile = river_list + lake + land
    if len(pile) > left:
        # Forced draws (CN-6) may leave fewer tiles than the counts: keep the land at the end.
        pile = pile[len(pile) - left :]
    while len(pile) < left:
        pile.append(rng.choice(land_tiles(state.options)))
    return pile
