"""Game creation: options, the pile (K-1, K-12.2), and CN-6 set-up documents."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.carcassonne.features import MAX_DRAWS
from engine.carcassonne.state import Options, State
from engine.carcassonne.tiles import SET_BASE, SET_IC, SET_RIVER, SET_TB, TILES, tiles_of_set
from engine.protocol import InvalidOptions, InvalidPosition, OptionSpec, validate_options

NAME = "carcassonne"
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5, 6)
DEFAULT_NAMES = ("Red", "Blue", "Green", "Yellow", "Black", "Pink")
FOLLOWERS = 7

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "farms",
        "third",
        ("third", "first", "second", "off"),
        "Farm scoring: third edition (3 per city per farm), first (4 per city, city by city), "
        "second (3 per city, once per player), or off (no farmers).",
    ),
    OptionSpec("small_cities", False, (False, True), "A completed 2-tile city scores 2, not 4."),
    OptionSpec("river", False, (False, True), "The River: 12 river tiles start the game."),
    OptionSpec(
        "inns_cathedrals",
        "off",
        ("off", "tiles", "full"),
        "Inns & Cathedrals: 18 tiles; 'full' adds a big follower per player.",
    ),
    OptionSpec(
        "traders_builders",
        "off",
        ("off", "tiles", "full"),
        "Traders & Builders: 24 tiles with goods; 'full' adds a builder and a pig per player.",
    ),
)


def make_options(options: Mapping[str, Any] | None) -> Options:
    """Validate table options (raises InvalidOptions naming the bad one)."""
    values = validate_options(OPTIONS, options)
    return Options(**values)


def land_tiles(options: Options) -> list[str]:
    """The land tiles of the pile in data order: base (one D less), then the expansions."""
    land = tiles_of_set(SET_BASE)
    land.remove("D")  # the start copy (K-1.4) or the copy the River leaves out (K-12.2)
    if options.inns_cathedrals != "off":
        land += tiles_of_set(SET_IC)
    if options.traders_builders != "off":
        land += tiles_of_set(SET_TB)
    return land


def river_tiles() -> list[str]:
    """The river tiles other than the spring and the lake."""
    return [t for t in tiles_of_set(SET_RIVER) if t not in ("R01", "R02")]


def seeded_pile(options: Options, rng: random.Random) -> list[str]:
    """The shuffled pile of K-1.5 / K-12.2. The procedure must stay stable (K-1.8)."""
    pile: list[str] = []
    if options.river:
        river = river_tiles()
        rng.shuffle(river)
        pile = [*river, "R02"]
    land = land_tiles(options)
    rng.shuffle(land)
    return pile + land


def allowed_sets(options: Options) -> set[str]:
    """The tile sets the options turn on."""
    sets = {SET_BASE}
    if options.river:
        sets.add(SET_RIVER)
    if options.inns_cathedrals != "off":
        sets.add(SET_IC)
    if options.traders_builders != "off":
        sets.add(SET_TB)
    return sets


def initial_state(
    options: Options,
    names: tuple[str, ...],
    seed: int,
    start_player: int | None,
    draws: list[str] | None,
) -> State:
    """A state before the first draw: start tile on the board, figures in supply."""
    rng = random.Random(seed)
    pile = seeded_pile(options, rng)
    drawn_start = rng.randrange(len(names))
    if draws is not None:
        pile = list(draws)
    n = len(names)
    big = 1 if options.inns_cathedrals == "full" else 0
    tb = 1 if options.traders_builders == "full" else 0
    state = State(
        options=options,
        names=names,
        seed=seed,
        start_player=drawn_start if start_player is None else start_player,
        start_player_given=start_player is not None,
        draws_given=tuple(draws) if draws is not None else None,
        pile=tuple(pile),
        supply=tuple((FOLLOWERS, big, tb, tb) for _ in range(n)),
        scores=(0,) * n,
        goods=((0, 0, 0),) * n,
    )
    state.to_act = state.start_player
    start = "R01" if options.river else "D"
    state.place_tile(start, 0, 0, 0)
    return state


def check_names(players: Any) -> tuple[str, ...]:
    """Seat names from a count or a list of names (CN-6.2)."""
    if isinstance(players, bool):
        raise InvalidPosition(f"'players' must be 2 to 6 or a list of names, got {players!r}")
    if isinstance(players, int):
        if players not in PLAYER_COUNTS:
            raise InvalidPosition(f"'players' must be 2 to 6, got {players}")
        return DEFAULT_NAMES[:players]
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        if len(players) not in PLAYER_COUNTS:
            raise InvalidPosition(f"'players' must list 2 to 6 names, got {len(players)}")
        return tuple(players)
    raise InvalidPosition(f"'players' must be 2 to 6 or a list of names, got {players!r}")


def check_draws(draws: Any, options: Options) -> list[str]:
    """Validate a forced draw order (CN-6.2)."""
    if not isinstance(draws, list):
        raise InvalidPosition("'draws' must be a list of tile ids")
    if len(draws) > MAX_DRAWS:
        # The engine keys board cells within 4096 of the start tile (features.cell_key).
        raise InvalidPosition(f"'draws' may list at most {MAX_DRAWS} tiles, got {len(draws)}")
    sets = allowed_sets(options)
    for i, tile in enumerate(draws):
        if not isinstance(tile, str) or tile not in TILES:
            raise InvalidPosition(f"draws[{i}]: unknown tile id {tile!r}")
        if tile == "R01":
            raise InvalidPosition(f"draws[{i}]: the spring R01 is the start tile, not drawn")
        if TILES[tile].set not in sets:
            raise InvalidPosition(
                f"draws[{i}]: tile {tile} belongs to {TILES[tile].set}, which the options "
                "do not turn on"
            )
    return list(draws)


class BadSetupOptions(InvalidPosition, InvalidOptions):
    """A set-up whose options are bad: both an invalid position and invalid options."""


SETUP_KEYS = ("options", "players", "seed", "start_player", "draws", "moves")


def check_setup_header(data: Mapping[str, Any]) -> tuple[Options, tuple[str, ...], int, int | None]:
    """Options, names, seed and start player of a set-up (CN-6.2, CN-6.3)."""
    if not isinstance(data, Mapping):
        raise InvalidPosition("a set-up must be a JSON object")
    for key in data:
        if key not in SETUP_KEYS:
            raise InvalidPosition(f"unknown set-up key {key!r}")
    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise InvalidPosition("'options' must be an object")
    try:
        options = make_options(raw_options)
    except InvalidOptions as exc:
        raise BadSetupOptions(f"options: {exc}") from exc
    names = check_names(data.get("players", 2))
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidPosition(f"'seed' must be a non-negative integer, got {seed!r}")
    start = data.get("start_player")
    if start is not None and (
        isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(names)
    ):
        raise InvalidPosition(f"'start_player' must be a seat 0..{len(names) - 1}, got {start!r}")
    return options, names, seed, start
