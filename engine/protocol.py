"""The game protocol every Pöppel engine implements.

Each game is a module (``engine.tock``, ``engine.dog``, ``engine.carcassonne``) exposing the
functions of :class:`GameModule`. States are immutable values: ``apply`` returns a new state
and never changes its input. Moves are small hashable value types whose ``str()`` is the
canonical notation of the rules documents, and ``parse_move(state, str(m)) == m``.

The table service, the renderer and the bots only ever talk to a game through this protocol,
so they work for every game alike.

Views
-----
``view(state, seat)`` returns a JSON-able ``dict``: everything that ``seat`` (or a spectator,
``seat=None``) may see, and nothing else. The renderer draws only views, so a view must never
carry another seat's cards, a pending exchange choice or the order of a draw pile / tile bag.

Common keys of every view:

* ``game``: ``"tock"``, ``"dog"`` or ``"carcassonne"``.
* ``viewer``: the seat the view was made for, or ``None``.
* ``seats``: the seats in use, in turn order.
* ``to_act``: sorted list of the seats that owe a decision now (several in an exchange).
* ``finished``: bool; ``winners``: list of seats (empty while running).
* ``events``: the public events of the action that produced this state (``Event.to_json()``).

Race games (Tock, Dog) add the fields of the position format (race-notation N-3) in normal
form, with the hidden parts replaced:

* ``hands`` is removed. ``hand_sizes``: ``{"0": 5, ...}`` for every seat in use;
  ``hand``: the viewer's own cards as tokens (sorted by card order), absent for spectators.
* ``draw`` is the number of cards in the draw pile (an ``int``), never the list.
* ``exchange`` is removed. ``exchanged``: sorted seats that have picked so far;
  ``my_pick``: the viewer's own pick or ``None``; ``received``: the card the viewer was
  passed in the last exchange once the rules let them see it, else ``None``.
* ``seed`` is removed. Tock's ``hand`` (the number of the hand in its deck cycle) is renamed
  ``hand_number`` because ``hand`` holds the viewer's cards.
* ``board``: ``{"ring": R, "per_seat": F}`` so a renderer needs no game knowledge to lay out
  the ring; ``teams`` as in N-3 (``null`` for free-for-all).

Carcassonne adds the position of carcassonne-notation CN-5 (it holds no hidden information:
``tiles_left`` is a count) plus ``last_tiles``: ``{"0": [x, y], ...}``, the cell of the tile
each seat placed last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message is readable by a player."""


class InvalidPosition(ValueError):
    """A position / set-up document that breaks the format's validity rules."""


class InvalidOptions(ValueError):
    """Table options that are unknown or out of range; the message names the option.

    The facts are attributes too, for front ends to say in words: ``option`` (the name, or
    ``None`` when the player count itself is wrong), ``value``, ``choices`` (the allowed
    values, if known; for an unknown option the known names, with ``unknown`` set) and
    ``players`` (the player count the option needs, if that is why).
    """

    def __init__(
        self,
        message: str,
        *,
        option: str | None = None,
        value: Any = None,
        choices: Sequence[Any] | None = None,
        players: int | None = None,
        unknown: bool = False,
    ) -> None:
        super().__init__(message)
        self.unknown = unknown
        self.option = option
        self.value = value
        self.choices = None if choices is None else tuple(choices)
        self.players = players


# Not frozen: a frozen dataclass's __init__ costs three times as much, and every action of
# a simulated game makes a few events. Events are shared between states: never change one.
@dataclass(slots=True)
class Event:
    """Something that happened during an action, for logs, chat messages and the renderer.

    ``kind`` is a short machine name (``"move"``, ``"capture"``, ``"ban"``, ``"deal"``,
    ``"exchange_done"``, ``"fold"``, ``"hand_over"``, ``"score"``, ``"tile_discarded"``,
    ``"game_over"``, ...); ``seat`` the seat it concerns, if any; ``data`` JSON-able details.
    ``public`` is False for events that only ``seat`` may see (for example the card received
    in an exchange). Events are facts, never sentences: :mod:`i18n.events` says them in each
    reader's language.
    """

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    public: bool = True

    def to_json(self) -> dict[str, Any]:
        """Return the event as a JSON-able dict."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "data": dict(self.data),
            "public": self.public,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning seats (a whole team in team games) and the scores."""

    winners: tuple[int, ...]
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: its name, allowed values (``None`` for free ints) and default.

    Front ends build their choices and help from these; ``new_game`` validates against them.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    description: str = ""


@runtime_checkable
class GameState(Protocol):
    """What every state offers to generic code."""

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of the action that produced this state (empty for a fresh game)."""
        ...


class GameModule(Protocol):
    """The functions each game module exposes (the module itself satisfies this protocol)."""

    NAME: str
    PLAYER_COUNTS: tuple[int, ...]
    OPTIONS: tuple[OptionSpec, ...]

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> Any:
        """Create a new game; raise :class:`InvalidOptions` naming a bad option."""
        ...

    def legal_moves(self, state: Any, seat: int | None = None) -> list[Any]:
        """The legal moves of ``seat`` (default: the seat to act), one per outcome."""
        ...

    def apply(self, state: Any, move: Any, seat: int | None = None) -> Any:
        """Return the state after ``move`` (a move or its text); raise :class:`IllegalMove`.

        ``seat`` names the acting seat where several may act (an exchange pick ``G:c``).
        """
        ...

    def parse_move(self, state: Any, text: str, seat: int | None = None) -> Any:
        """Parse notation into a legal move of ``state``; raise :class:`IllegalMove`."""
        ...

    def to_position(self, state: Any) -> dict[str, Any]:
        """The JSON position of the state, in normal form."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; see the module docstring."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """``None`` while the game runs, else the winners."""
        ...

    def seats_to_act(self, state: Any) -> frozenset[int]:
        """The seats that owe a decision now (several during an exchange, none when over)."""
        ...

    def auto_action(self, state: Any, seat: int) -> Any:
        """Apply what the rules say happens when ``seat`` is absent or timed out."""
        ...

    def leave(self, state: Any, seat: int) -> Any:
        """Mark ``seat`` as left (it then only ever gets automatic actions)."""
        ...

    def sample_state(self, view: Mapping[str, Any], seed: int) -> Any:
        """A full state consistent with ``view``, hidden parts drawn at random from ``seed``.

        Bots search on such states (determinization): the other hands are filled from the
        cards the viewer cannot account for, the draw pile / tile bag shuffled. For the
        viewer's own decisions ``legal_moves(sample_state(view, s))`` equals the legal moves
        of the real state, whatever ``s`` is.
        """
        ...


def validate_options(
    specs: Sequence[OptionSpec], options: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Fill defaults and check every option against ``specs``.

    Raises :class:`InvalidOptions` naming the first unknown option or bad value. Booleans are
    not accepted where an int is expected and vice versa (``True`` is not ``1``).
    """
    given = dict(options or {})
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise InvalidOptions(
                f"unknown option {name!r} (known options: {known})",
                option=name,
                value=given[name],
                choices=sorted(by_name),
                unknown=True,
            )
    result: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if type(value) is not type(spec.default) and not (
            isinstance(spec.default, int)
            and not isinstance(spec.default, bool)
            and type(value) is int
        ):
            raise InvalidOptions(
                f"option {spec.name!r} must be a {type(spec.default).__name__}, got {value!r}",
                option=spec.name,
                value=value,
                choices=spec.choices,
            )
        if spec.choices is not None and value not in spec.choices:
            allowed = ", ".join(repr(c) for c in spec.choices)
            raise InvalidOptions(
                f"option {spec.name!r} must be one of {allowed}, got {value!r}",
                option=spec.name,
                value=value,
                choices=spec.choices,
            )
        result[spec.name] = value
    return result
