"""Positions (N-3): load with validation, write in normal form."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.protocol import Event, InvalidPosition
from engine.race.cards import TOKENS, sort_cards
from engine.race.flow import begin_turn, next_deal, shuffled, winning_side
from engine.race.geometry import (
    TEAMS_4,
    TEAMS_6,
    TOCK_SEATS,
    Config,
    kennel,
    loc_text,
    make_config,
    parse_loc,
)
from engine.race.state import Seven, State

TOCK_OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "seven": ("split", ("split", "single")),
    "quick_start": (False, (False, True)),
    "variant5": (False, (False, True)),
}
DOG_OPTIONS: dict[str, tuple[Any, tuple[Any, ...]]] = {"preset": ("bsw", ("bsw", "braendi"))}

COMMON_FIELDS = {
    "game", "options", "players", "seats", "teams", "pawns", "hands", "phase", "turn",
    "dealer", "exchange", "draw", "discard", "left", "seven", "winner", "seed",
}  # fmt: skip
TOCK_FIELDS = COMMON_FIELDS | {"hand", "deal", "banned"}
DOG_FIELDS = COMMON_FIELDS | {"round", "folded"}


def _bad(msg: str) -> InvalidPosition:
    return InvalidPosition(msg)


def default_seats(game: str, players: int) -> tuple[int, ...]:
    """The seats in use (T-2.2; Dog: all)."""
    return tuple(range(players)) if game == "dog" else TOCK_SEATS[players]


def normal_options(game: str, given: Any) -> tuple[tuple[str, Any], ...]:
    """Validated options with defaults, as a sorted tuple (N-3.2)."""
    spec = DOG_OPTIONS if game == "dog" else TOCK_OPTIONS
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise _bad("options must be an object")
    out = {}
    for key in given:
        if key not in spec:
            raise _bad(f"unknown option {key!r} (N-3.2)")
    for key, (default, choices) in spec.items():
        value = given.get(key, default)
        if type(value) is not type(default) or value not in choices:
            raise _bad(f"option {key!r} has a bad value {value!r} (N-3.2)")
        out[key] = value
    return tuple(sorted(out.items()))


#: ``teams`` absent from a position: the game's default layout.
_DEFAULT_TEAMS = object()


def _teams(game: str, players: int, given: Any) -> tuple[tuple[int, ...], ...] | None:
    allowed: list[tuple[tuple[int, ...], ...] | None]
    if game == "dog":
        allowed = [TEAMS_4 if players == 4 else TEAMS_6]
        if given is _DEFAULT_TEAMS:
            return allowed[0]
        if given is None:
            # An explicit null is a layout of its own (no teams), which Dog never has.
            raise _bad("a Dog position has its default teams, not null (N-3.4 rule 2)")
    else:
        allowed = [None]
        if players == 4:
            allowed.append(TEAMS_4)
        if players == 6:
            allowed.append(TEAMS_6)
        if given is None or given is _DEFAULT_TEAMS:
            return None
    if not isinstance(given, list) or not all(
        isinstance(t, list) and all(type(x) is int for x in t) for t in given
    ):
        raise _bad("teams must be a list of seat lists or null (N-3.4 rule 2)")
    norm = tuple(sorted(tuple(sorted(t)) for t in given))
    if norm not in allowed:
        raise _bad(f"teams {given} are not allowed here (N-3.4 rule 2)")
    return norm


def _int(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise _bad(f"{key} must be an integer")
    return value


def _token_list(value: Any, what: str, cfg: Config) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _bad(f"{what} must be a list of card tokens")
    for t in value:
        if t not in TOKENS or (t == "X" and not cfg.is_dog):
            raise _bad(f"{what}: {t!r} is not a card of this game (N-3.4 rule 8)")
    return tuple(value)


def _seat_key(cfg: Config, key: str, what: str) -> int:
    if not key.isdigit() or int(key) not in cfg.seats:
        raise _bad(f"{what}: {key!r} is not a seat in use (N-3.4 rule 3)")
    return int(key)


def load(data: dict[str, Any], expected_game: str) -> State:
    """Load and validate a position (N-3.4) into a state, filling the draw pile (N-3.5)."""
    if not isinstance(data, dict):
        raise _bad("a position is a JSON object")
    game = data.get("game")
    if game not in ("tock", "dog"):
        raise _bad("game must be 'tock' or 'dog' (N-3.4 rule 1)")
    if game != expected_game:
        raise _bad(f"this is a {game} position, not {expected_game}")
    fields = DOG_FIELDS if game == "dog" else TOCK_FIELDS
    for key in data:
        if key not in fields:
            raise _bad(f"unknown field {key!r} for {game} (N-3.1, N-3.4 rule 1)")
    players = _int(data, "players", 4)
    if players not in ((4, 6) if game == "dog" else (2, 3, 4, 5, 6)):
        raise _bad(f"{players} players is not allowed for {game} (N-3.4 rule 1)")
    options = normal_options(game, data.get("options"))
    seats = default_seats(game, players)
    if "seats" in data and data["seats"] != list(seats):
        raise _bad(f"seats must be {list(seats)} (N-3.1)")
    teams = _teams(game, players, data.get("teams", _DEFAULT_TEAMS))
    cfg = make_config(game, players, options, teams)
    positions = cfg.positions

    # pawns
    pawns: list[tuple[int, ...]] = [() for _ in range(positions)]
    guards: set[int] = set()
    raw_pawns = data.get("pawns", {})
    if not isinstance(raw_pawns, dict):
        raise _bad("pawns must be an object")
    occupied: set[int] = set()
    for s in seats:
        pawns[s] = (kennel(s),) * 4
    for key, locs in raw_pawns.items():
        s = _seat_key(cfg, key, "pawns")
        if not isinstance(locs, list) or not all(isinstance(x, str) for x in locs):
            raise _bad("a pawn list is a list of locations")
        if len(locs) > 4:
            raise _bad(f"seat {s} has more than 4 pawns (N-3.4 rule 4)")
        parsed = []
        for text in locs:
            guarded = text.endswith("*")
            loc = parse_loc(text[:-1] if guarded else text)
            if loc is None or not cfg.loc_ok(loc, s):
                raise _bad(f"{text!r} is not a location for seat {s} (N-3.4 rule 5)")
            if guarded:
                if loc != cfg.start[s]:
                    raise _bad(f"{text!r}: '*' only on the seat's own start field (N-3.4 rule 7)")
                guards.add(s)
            if loc < 2000:
                if loc in occupied:
                    raise _bad(f"{loc_text(loc)} holds two pawns (N-3.4 rule 6)")
                occupied.add(loc)
            parsed.append(loc)
        parsed.extend([kennel(s)] * (4 - len(parsed)))
        pawns[s] = tuple(sorted(parsed))

    # hands
    hands: list[tuple[str, ...]] = [() for _ in range(positions)]
    raw_hands = data.get("hands", {})
    if not isinstance(raw_hands, dict):
        raise _bad("hands must be an object")
    for key, cards in raw_hands.items():
        s = _seat_key(cfg, key, "hands")
        hands[s] = sort_cards(_token_list(cards, f"hand of seat {s}", cfg))

    phase = data.get("phase", "play")
    if phase not in ("exchange", "play", "finished"):
        raise _bad(f"phase {phase!r} is unknown")
    if "turn" in data:
        turn = _int(data, "turn", 0)
        if turn not in seats:
            raise _bad("turn must be a seat in use (N-3.4 rule 10)")
        dealer = _int(data, "dealer", _prev_seat(cfg, turn))
    elif "dealer" in data:
        dealer = _int(data, "dealer", 0)
        if dealer not in seats:
            raise _bad("dealer must be a seat in use (N-3.4 rule 10)")
        turn = cfg.next_seat(dealer)
    else:
        turn = seats[0]
        dealer = _prev_seat(cfg, turn)
    if dealer not in seats:
        raise _bad("dealer must be a seat in use (N-3.4 rule 10)")
    number_key = "round" if cfg.is_dog else "hand"
    number = _int(data, number_key, 1)
    if number < 1:
        raise _bad(f"{number_key} must be at least 1")
    # Tock: the deals of the whole game (the hand number restarts with every deck cycle).
    deals = number if cfg.is_dog else _int(data, "deal", number)
    if deals < number:
        raise _bad("deal must be at least hand")
    banned = data.get("banned", False)
    if type(banned) is not bool:
        raise _bad("banned must be a boolean")
    folded_raw = data.get("folded", [])
    if not isinstance(folded_raw, list) or not all(
        type(x) is int and x in seats for x in folded_raw
    ):
        raise _bad("folded must be a list of seats in use")
    folded = frozenset(folded_raw)
    for s in folded:
        if hands[s]:
            raise _bad(f"folded seat {s} holds cards (N-3.4 rule 12)")
    left_raw = data.get("left", [])
    if not isinstance(left_raw, list) or not all(type(x) is int and x in seats for x in left_raw):
        raise _bad("left must be a list of seats in use")

    # exchange
    raw_ex = data.get("exchange", {})
    if not isinstance(raw_ex, dict):
        raise _bad("exchange must be an object")
    if raw_ex and phase != "exchange":
        raise _bad("exchange picks exist only in phase exchange (N-3.4 rule 13)")
    exchange = []
    for key, token in raw_ex.items():
        s = _seat_key(cfg, key, "exchange")
        if token not in hands[s]:
            raise _bad(f"seat {s} picked {token!r}, which is not in its hand (N-3.4 rule 13)")
        exchange.append((s, token))
    if phase == "exchange" and teams is None:
        raise _bad("a free-for-all game has no exchange phase (N-3.4 rule 14)")

    # pending 7
    seven = None
    raw_seven = data.get("seven")
    if raw_seven is not None:
        seven = _load_seven(cfg, raw_seven, turn, occupied, phase)
        if banned:
            raise _bad("a pending 7 is never banned (N-3.3)")
    if banned and (cfg.is_dog or phase != "play"):
        raise _bad("banned only in a Tock play phase (N-3.4 rule 11)")

    # cards
    discard = _token_list(data.get("discard", []), "discard", cfg)
    used: Counter[str] = Counter(discard)
    for h in hands:
        used.update(h)
    if seven is not None:
        used[seven.card] += 1
    raw_draw = data.get("draw")
    draw_list: tuple[str, ...] | None = None
    if isinstance(raw_draw, list):
        draw_list = _token_list(raw_draw, "draw", cfg)
        used.update(draw_list)
    for token, count in used.items():
        if count > cfg.deck.get(token, 0):
            raise _bad(f"too many {token} cards: {count} (N-3.4 rule 9)")
    rest: Counter[str] = Counter(cfg.deck)
    rest.subtract(used)
    unaccounted = list(rest.elements())
    seed = _int(data, "seed", 0)
    if seed < 0:
        raise _bad("seed must be ≥ 0")
    if draw_list is not None:
        if unaccounted:
            raise _bad("with a draw list every card must be placed (N-3.5)")
        draw = draw_list
    else:
        if raw_draw is not None and (
            type(raw_draw) is not int or not 0 <= raw_draw <= len(unaccounted)
        ):
            raise _bad("draw must be a list or a count of the unaccounted cards (N-3.5)")
        pile, seed = shuffled(unaccounted, seed)
        n = len(pile) if raw_draw is None else raw_draw
        draw = pile[:n]
        discard = pile[n:] + discard

    # winner
    raw_winner = data.get("winner")
    state = State(
        cfg=cfg,
        pawns=tuple(pawns),
        guards=frozenset(guards),
        hands=tuple(hands),
        phase=phase,
        turn=turn,
        dealer=dealer,
        number=number,
        deals=deals,
        banned=banned,
        folded=folded,
        exchange=tuple(sorted(exchange)),
        draw=draw,
        discard=discard,
        left=frozenset(left_raw),
        seven=seven,
        winner=None,
        seed=seed,
    )
    side = winning_side(state)
    if phase == "finished":
        if not isinstance(raw_winner, list) or side is None or sorted(raw_winner) != list(side):
            raise _bad("a finished game needs the winning side as winner (N-3.4 rule 15)")
        return state.evolve(winner=side)
    if raw_winner is not None or side is not None:
        raise _bad("only a finished game has a winner or a complete side (N-3.4 rule 15)")
    return settle(state)


def _prev_seat(cfg: Config, seat: int) -> int:
    seats = cfg.seats
    return seats[(seats.index(seat) - 1) % len(seats)]


def _load_seven(cfg: Config, raw: Any, turn: int, occupied: set[int], phase: str) -> Seven:
    if not isinstance(raw, dict) or set(raw) != {"card", "colour", "left", "moved"}:
        raise _bad("seven must be {card, colour, left, moved} (N-3.3)")
    if phase != "play":
        raise _bad("a pending 7 exists only in phase play")
    card, colour, left, moved = raw["card"], raw["colour"], raw["left"], raw["moved"]
    if card not in (("7", "X") if cfg.is_dog else ("7",)):
        raise _bad("seven.card must be 7 (or X in Dog)")
    if type(left) is not int or not 1 <= left <= 6:
        raise _bad("seven.left must be 1 … 6 (N-3.4 rule 16)")
    if type(colour) is not int or colour not in (turn, cfg.partner[turn]) or colour < 0:
        raise _bad("seven.colour must be the seat in turn or its partner (N-3.4 rule 16)")
    if not isinstance(moved, list):
        raise _bad("seven.moved must be a list")
    locs = set()
    for text in moved:
        loc = parse_loc(text) if isinstance(text, str) else None
        if loc is None or loc not in occupied:
            raise _bad(f"seven.moved: {text!r} holds no pawn (N-3.4 rule 16)")
        locs.add(loc)
    return Seven(card, colour, left, frozenset(locs))


def settle(state: State) -> State:
    """Move the turn on to a seat that can act, dealing if nobody holds cards (N-3.7)."""
    if state.phase != "play" or state.seven is not None:
        return state
    if state.hands[state.turn] and state.turn not in state.folded:
        return begin_turn(state)
    cfg = state.cfg
    seat = state.turn
    for _ in cfg.seats:
        seat = cfg.next_seat(seat)
        if state.hands[seat] and seat not in state.folded:
            return begin_turn(state.evolve(turn=seat, banned=False))
    events: list[Event] = []
    return next_deal(state, events)


def write(state: State) -> dict[str, Any]:
    """The position of a state in normal form (N-3.6)."""
    cfg = state.cfg
    data: dict[str, Any] = {
        "game": cfg.game,
        "options": dict(cfg.options),
        "players": cfg.players,
        "seats": list(cfg.seats),
        "teams": [list(t) for t in cfg.teams] if cfg.teams is not None else None,
        "pawns": {
            str(s): [
                loc_text(loc) + ("*" if s in state.guards and loc == cfg.start[s] else "")
                for loc in state.pawns[s]
            ]
            for s in cfg.seats
        },
        "hands": {str(s): list(state.hands[s]) for s in cfg.seats},
        "phase": state.phase,
        "turn": state.turn,
        "dealer": state.dealer,
        "exchange": {str(s): t for s, t in state.exchange},
        "draw": list(state.draw),
        "discard": list(state.discard),
        "left": sorted(state.left),
        "seven": None,
        "winner": list(state.winner) if state.winner is not None else None,
        "seed": state.seed,
    }
    if state.seven is not None:
        sv = state.seven
        data["seven"] = {
            "card": sv.card,
            "colour": sv.colour,
            "left": sv.left,
            "moved": [loc_text(loc) for loc in sorted(sv.moved)],
        }
    if cfg.is_dog:
        data["round"] = state.number
        data["folded"] = sorted(state.folded)
    else:
        data["hand"] = state.number
        data["deal"] = state.deals
        data["banned"] = state.banned
    return data
