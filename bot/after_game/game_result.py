"""What a finished table leaves behind: places, teams, scores and the story of the game.

:func:`build_result` reads only the public history of a table
(:mod:`bot.after_game.replay`): the final standings, and for Carcassonne each seat's points
by category and the scores over time, for Tock and Dog the order in which pawns reached home
and how many hands were dealt. A
:class:`GameResult` is plain JSON-able data; storage keeps it as the table's result and the
ratings, ``/history`` and the results image are made from it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from bot.model.table import Seat, TableRecord

if TYPE_CHECKING:
    from bot.after_game.replay import PublicStep

#: The Carcassonne scoring categories, in the order the results image lists them.
CATEGORIES: tuple[str, ...] = ("road", "city", "monastery", "farm", "goods")
#: Points that also belong to an expansion piece, shown beside the categories.
EXTRAS: tuple[str, ...] = ("inn", "cathedral")


def player_key(seat: Seat) -> str | None:
    """Who a seat's result counts for: ``u:<user id>`` for a person (also one who left),
    ``bot:<level>`` for a bot seated from the start; ``None`` for a bot that took over the
    seat of a person who left (the person keeps the result)."""
    user = seat.user_id if seat.user_id is not None else seat.former_user_id
    if user is not None:
        return f"u:{user}"
    if seat.bot_level is not None:
        return f"bot:{seat.bot_level}"
    return None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result. ``place`` is 1 for the winners; ties share a place; a seat whose
    person left is placed after every seat that stayed (``left`` is True)."""

    seat: int
    name: str
    place: int
    player: str | None = None
    user_id: int | None = None
    bot_level: str | None = None
    left: bool = False
    team: int | None = None
    #: Carcassonne: the final score; Tock and Dog: the pawns the seat brought home.
    score: int = 0
    #: A bot's number as the table named it (``Bot 2``): the results say the same name.
    bot_number: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        """Rebuild from :func:`dataclasses.asdict`."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished table's result (see the module docstring)."""

    table_id: int
    guild_id: int
    channel_id: int
    game: str
    options: Mapping[str, Any]
    finished_at: float
    seats: tuple[SeatResult, ...]
    winners: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] | None = None
    rated: bool = True
    #: How many log entries the game took.
    moves: int = 0
    #: Carcassonne: ``{"<seat>": {"road": n, ...}}`` and ``[[step, score0, score1, ...], ...]``.
    categories: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    timeline: tuple[tuple[int, ...], ...] = ()
    #: Tock and Dog: ``[[step, colour], ...]`` in the order pawns reached home; hands dealt.
    home: tuple[tuple[int, int], ...] = ()
    hands: int = 0

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data (what storage keeps): lists, not tuples."""
        data: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """Rebuild a result from :meth:`to_json`."""
        teams = data.get("teams")
        return cls(
            table_id=int(data["table_id"]),
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            game=str(data["game"]),
            options=dict(data.get("options") or {}),
            finished_at=float(data["finished_at"]),
            seats=tuple(SeatResult.from_json(s) for s in data["seats"]),
            winners=tuple(int(w) for w in data["winners"]),
            teams=None if teams is None else tuple(tuple(int(s) for s in t) for t in teams),
            rated=bool(data.get("rated", True)),
            moves=int(data.get("moves", 0)),
            categories={k: dict(v) for k, v in (data.get("categories") or {}).items()},
            timeline=tuple(tuple(int(x) for x in row) for row in data.get("timeline") or ()),
            home=tuple((int(a), int(b)) for a, b in data.get("home") or ()),
            hands=int(data.get("hands", 0)),
        )

    def seat(self, index: int) -> SeatResult:
        """The result of seat ``index``."""
        return next(s for s in self.seats if s.seat == index)

    def standings(self) -> list[SeatResult]:
        """The seats by place (then seat order)."""
        return sorted(self.seats, key=lambda s: (s.place, s.seat))


def is_hinted(record: TableRecord) -> bool:
    """Whether the table played with hints (never rated)."""
    return bool(record.options.get("hints") or record.extra.get("hints"))


def _places(values: Mapping[int, float], left: Iterable[int]) -> dict[int, int]:
    """Competition places (1, 1, 3) by ``values`` descending; ``left`` ones come last."""
    gone = set(left)
    staying = {s: v for s, v in values.items() if s not in gone}
    places = {s: 1 + sum(1 for w in staying.values() if w > v) for s, v in staying.items()}
    last = len(staying) + 1
    places.update({s: last for s in values if s in gone})
    return places


def _pawns_home(view: Mapping[str, Any], colour: int) -> int:
    pawns = (view.get("pawns") or {}).get(str(colour)) or []
    return sum(1 for p in pawns if str(p).startswith("h"))


def build_result(
    record: TableRecord,
    first: Mapping[str, Any],
    steps: Iterable[PublicStep],
    finished_at: float,
) -> GameResult:
    """The result of the finished table ``record`` from its public history."""
    categories: dict[str, dict[str, int]] = {}
    timeline: list[tuple[int, ...]] = []
    home: list[tuple[int, int]] = []
    hands = 0
    last_scores = tuple(first.get("scores") or ())
    if record.game == "carcassonne" and last_scores:
        timeline.append((0, *last_scores))
    final = first
    moves = 0
    for step in steps:
        moves += 1
        final = step.view
        for event in step.view.get("events") or ():
            _note_event(event, step.index + 1, categories, home)
            if event.get("kind") == "deal":
                hands += 1
        scores = tuple(step.view.get("scores") or ())
        if record.game == "carcassonne" and scores and scores != last_scores:
            timeline.append((step.index + 1, *scores))
            last_scores = scores
    if record.game == "dog" or record.game == "tock":
        hands = max(hands, 1)
    seats = [s for s in record.seats if s.index in (final.get("seats") or [])]
    raw_teams = final.get("teams")
    teams = tuple(tuple(int(s) for s in t) for t in raw_teams) if raw_teams else None
    team_of = {s: n for n, t in enumerate(teams or ()) for s in t}
    winners = tuple(int(w) for w in final.get("winners") or record.winners)
    left = [s.index for s in seats if s.former_user_id is not None or s.left]
    if record.game == "carcassonne":
        score = {s.index: int((final.get("scores") or [0] * 8)[s.index]) for s in seats}
        values: dict[int, float] = {k: float(v) for k, v in score.items()}
        for seat in winners:  # the engine's winners win, whatever a tie-break says
            values[seat] = max(values.values()) + 1
    else:
        score = {s.index: _pawns_home(final, s.index) for s in seats}
        strength = dict(score)
        if teams:
            for team in teams:
                total = sum(score.get(s, 0) for s in team)
                strength.update(dict.fromkeys(team, total))
        values = {s: float(v) + (1000 if s in winners else 0) for s, v in strength.items()}
    if teams:
        # Teams are placed as wholes (1, 2, 2 for three teams); a member who left comes last.
        team_value = {n: max(values[s] for s in t if s in values) for n, t in enumerate(teams) if t}
        team_places = _places(dict(team_value), ())
        places = {s: team_places[team_of[s]] for s in values}
        places.update({s: len(teams) + 1 for s in left})
    else:
        places = _places(values, left)
    results = tuple(
        SeatResult(
            seat=s.index,
            name=s.name,
            place=places[s.index],
            player=player_key(s),
            user_id=s.user_id if s.user_id is not None else s.former_user_id,
            bot_level=s.bot_level if s.former_user_id is None else None,
            left=s.index in left,
            team=team_of.get(s.index),
            score=score[s.index],
            bot_number=(s.bot_number or s.index + 1) if s.is_bot and not s.name else None,
        )
        for s in seats
    )
    return GameResult(
        table_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        game=record.game,
        options=dict(record.options),
        finished_at=finished_at,
        seats=results,
        winners=winners,
        teams=teams,
        rated=not is_hinted(record),
        moves=moves,
        categories=categories,
        timeline=tuple(timeline),
        home=tuple(home),
        hands=hands,
    )


def _note_event(
    event: Mapping[str, Any],
    step: int,
    categories: dict[str, dict[str, int]],
    home: list[tuple[int, int]],
) -> None:
    """Add one public event to the Carcassonne categories or the race home order."""
    data = event.get("data") or {}
    kind = event.get("kind")
    if kind == "score":
        feature = str(data.get("feature", ""))
        for seat, points in (data.get("awards") or {}).items():
            mine = categories.setdefault(str(seat), {})
            if feature in CATEGORIES:
                mine[feature] = mine.get(feature, 0) + int(points)
            if data.get("inn") and feature == "road":
                mine["inn"] = mine.get("inn", 0) + int(points)
            if data.get("cathedral") and feature == "city":
                mine["cathedral"] = mine.get("cathedral", 0) + int(points)
    elif kind == "move":
        start, end = str(data.get("from", "")), str(data.get("to", ""))
        if end.startswith("h") and not start.startswith("h") and "colour" in data:
            home.append((step, int(data["colour"])))


def seats_by_team(result: GameResult) -> list[Sequence[SeatResult]]:
    """The seats grouped by team (one group per seat without teams), best place first."""
    if not result.teams:
        return [[s] for s in result.standings()]
    groups = [
        [result.seat(i) for i in team if any(s.seat == i for s in result.seats)]
        for team in result.teams
    ]
    return sorted(groups, key=lambda g: min((s.place for s in g), default=99))
