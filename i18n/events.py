"""Engine events in the reader's language.

The engines write one English sentence per event (``Event.text``) and also its facts
(``kind``, ``seat``, ``data``). :func:`event_text` rebuilds the sentence from the facts with
the catalogue; an event it does not know, or whose data lacks a fact, keeps the engine's
English sentence, so a new engine event can never break a message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from i18n.catalog import DEFAULT_LOCALE, normalise_locale, t, tn

Names = Mapping[int, str] | Sequence[str] | None


def colour_word(seat: int, locale: object, game: str = "tock") -> str:
    """The colour of ``seat`` as the engines name it, in ``locale``."""
    prefix = "colour.carcassonne" if game == "carcassonne" else "colour"
    return t(f"{prefix}.{seat % 6}", locale)


def list_words(items: Sequence[str], locale: object) -> str:
    """``a``, ``a and b``, ``a, b and c`` in ``locale``."""
    if len(items) <= 1:
        return "".join(items)
    return t("list.and", locale, first=", ".join(items[:-1]), last=items[-1])


def _name(names: Names, seat: int, locale: object, game: str) -> str:
    if isinstance(names, Mapping) and seat in names:
        return str(names[seat])
    if isinstance(names, Sequence) and not isinstance(names, str) and 0 <= seat < len(names):
        return str(names[seat])
    return colour_word(seat, locale, game)


def event_text(event: Mapping[str, Any], locale: object, *, game: str, names: Names = None) -> str:
    """The sentence of ``event`` (an ``Event.to_json()`` dict) in ``locale``.

    ``names``: how to call seats in Carcassonne (its events use the players' names); race
    events call seats by colour, as the engines do. English returns the engine's own text.
    """
    english = str(event.get("text") or "")
    if normalise_locale(locale) == DEFAULT_LOCALE:
        return english
    rebuilt = rebuilt_text(event, locale, game=game, names=names)
    return english if rebuilt is None else rebuilt


def rebuilt_text(
    event: Mapping[str, Any], locale: object, *, game: str, names: Names = None
) -> str | None:
    """The sentence of ``event`` built from its kind and data alone, English included.

    None when the kind is unknown or the data lacks a fact. In English it matches the
    engine's own sentence (a test holds the catalogue to that), so the facts really suffice.
    """
    english = str(event.get("text") or "")
    kind = str(event.get("kind", ""))
    table = _CARCASSONNE if game == "carcassonne" else _RACE
    build = table.get(kind)
    if build is None:
        return None
    try:
        return build(_Facts(event, normalise_locale(locale), game, names, english))
    except (KeyError, IndexError, TypeError, ValueError):
        return None


class _Facts:
    """One event with helpers for the builders below."""

    def __init__(
        self, event: Mapping[str, Any], locale: str, game: str, names: Names, english: str
    ) -> None:
        self.data: Mapping[str, Any] = event.get("data") or {}
        self.seat = event.get("seat")
        self.locale = locale
        self.game = game
        self.names = names
        self.english = english

    def t(self, key: str, **params: Any) -> str:
        return t(key, self.locale, **params)

    def colour(self, seat: Any) -> str:
        return colour_word(int(seat), self.locale, self.game)

    def name(self, seat: Any) -> str:
        return _name(self.names, int(seat), self.locale, self.game)


def _race_game_over(f: _Facts) -> str:
    winners = [f.colour(s) for s in f.data["winners"]]
    return f.t("event.game_over", names=list_words(winners, f.locale))


def _shuffle(f: _Facts) -> str:
    # Both shuffles share kind and data; only the sentence tells a new deck cycle apart.
    return f.t("event.new_cycle" if "cycle" in f.english else "event.shuffle")


_RACE: dict[str, Callable[[_Facts], str]] = {
    "capture": lambda f: f.t("event.capture", colour=f.colour(f.seat), at=f.data["at"]),
    "move": lambda f: f.t(
        "event.move", colour=f.colour(f.data["colour"]), start=f.data["from"], end=f.data["to"]
    ),
    "bring_out": lambda f: f.t(
        "event.bring_out", colour=f.colour(f.data["colour"]), to=f.data["to"]
    ),
    "swap": lambda f: f.t(
        "event.swap",
        colour_a=f.colour(f.data["colours"][0]),
        a=f.data["a"],
        colour_b=f.colour(f.data["colours"][1]),
        b=f.data["b"],
    ),
    "hand_over": lambda f: f.t("event.hand_over" if "hand" in f.data else "event.round_over"),
    "shuffle": _shuffle,
    "deal": lambda f: f.t("event.deal", colour=f.colour(f.seat), size=f.data["size"]),
    "dealer": lambda f: f.t("event.dealer", colour=f.colour(f.seat)),
    "pick": lambda f: f.t("event.pick", colour=f.colour(f.seat)),
    "pick_made": lambda f: f.t("event.pick_made", card=f.data["card"]),
    "exchange_done": lambda f: f.t("event.exchange_done"),
    "exchange_received": lambda f: f.t("event.exchange_received", card=f.data["card"]),
    "game_over": _race_game_over,
    "ban": lambda f: f.t("event.ban", colour=f.colour(f.seat)),
    "discard": lambda f: f.t("event.discard", colour=f.colour(f.seat), card=f.data["card"]),
    "fold": lambda f: f.t("event.fold", colour=f.colour(f.seat)),
    "play": lambda f: f.t("event.play", colour=f.colour(f.seat), move=f.data["move"]),
    "seven_cut": lambda f: f.t("event.seven_cut", colour=f.colour(f.seat), move=f.data["move"]),
    "left": lambda f: f.t("event.left", colour=f.colour(f.seat)),
}


def _goods(f: _Facts) -> str:
    got = f.data["goods"]
    listed = ", ".join(
        f.t("goods.count", count=int(n), goods=f.t(f"goods.{kind}")) for kind, n in got.items()
    )
    return f.t("event.goods", name=f.name(f.seat), goods=listed)


def _carcassonne_over(f: _Facts) -> str:
    scores = ", ".join(f"{f.name(s)} {v}" for s, v in enumerate(f.data["scores"]))
    winners = [f.name(s) for s in f.data["winners"]]
    return tn(
        "event.carcassonne_over",
        len(winners),
        f.locale,
        scores=scores,
        names=list_words(winners, f.locale),
    )


def _score(f: _Facts) -> str:
    """Any Carcassonne score: roads, cities, monasteries, farms of each edition, goods."""
    feature = f.data["feature"]
    if feature == "farm":
        return _farm(f)
    if feature == "goods":
        return f.t(
            "score.goods_most",
            goods=f.t(f"goods.{f.data['goods']}"),
            count=int(f.data["tokens"]),
            names=_owner_names(f),
        )
    return _with_owners(f, f.t("score.total", text=_feature_text(f), points=int(f.data["points"])))


def _feature_text(f: _Facts) -> str:
    """The breakdown of a road, city or monastery score, without its total."""
    data = f.data
    feature = data["feature"]
    final = bool(data.get("final"))
    if feature == "monastery":
        if final:
            return f.t("score.monastery", count=int(data["tiles"]) - 1)
        return f.t("score.monastery_complete")
    if feature not in ("road", "city"):
        raise ValueError(feature)
    tiles = tn("score.tiles", int(data["tiles"]), f.locale)
    mult = int(data["multiplier"])
    if feature == "road":
        key = "score.road_inn" if data.get("inn") else "score.road"
    elif data.get("cathedral"):
        key = "score.city_cathedral"
    elif not final and int(data["tiles"]) == 2 and mult == 1:
        # Only the small-cities option scores a complete city ×1 (K-6.5 variant).
        key = "score.small_city"
    else:
        key = "score.city"
    text = f.t(key, tiles=tiles, mult=mult)
    shields = int(data.get("shields") or 0)
    if feature == "city" and shields:
        text = f.t(
            "score.plus_shields",
            text=text,
            shields=tn("score.shields", shields, f.locale),
            mult=mult,
        )
    return text


def _owner_names(f: _Facts) -> str:
    return list_words([f.name(o) for o in f.data["owners"]], f.locale)


def _with_owners(f: _Facts, text: str) -> str:
    """``text`` followed by who scores it: one name, a tie, or nobody."""
    owners = [int(o) for o in f.data["owners"]]
    if not owners:
        return f.t("score.nobody", text=text)
    if len(owners) == 1:
        return f.t("score.owner", text=text, name=f.name(owners[0]))
    return f.t("score.tie", text=text, names=_owner_names(f))


def _points_list(f: _Facts) -> list[int]:
    """Points per owner: farm events of the first and third editions give one per owner."""
    points = f.data["points"]
    owners = f.data["owners"]
    if isinstance(points, list):
        if len(points) != len(owners):
            raise ValueError("points and owners differ in length")
        return [int(p) for p in points]
    return [int(points)] * len(owners)


def _farm(f: _Facts) -> str:
    """A farm score in the edition its data shows (K-9): third, second or first."""
    data = f.data
    owners = [int(o) for o in data["owners"]]
    if "city" in data:  # first edition: the farmers of one city, city by city
        x, y = (int(v) for v in data["city"])
        where = f.t("score.farm_city", segment=str(data["segment"]), x=x, y=y)
        parts = [
            f.t("score.farm_first_part", name=f.name(o), points=p)
            for o, p in zip(owners, _points_list(f), strict=True)
        ]
        return f.t(
            "score.breakdown", text=f.t("score.farm_first", where=where), parts=", ".join(parts)
        )
    count = int(data["cities"])
    cities = tn("score.cities", count, f.locale)
    if isinstance(data["points"], list):  # third edition: each owner n × 3, or × 4 with a pig
        parts = []
        for owner, points in zip(owners, _points_list(f), strict=True):
            per = points // count
            key = "score.farm_part_pig" if per == 4 else "score.farm_part"
            parts.append(f.t(key, name=f.name(owner), count=count, per=per, points=points))
        return f.t(
            "score.breakdown", text=f.t("score.farm_third", cities=cities), parts="; ".join(parts)
        )
    # Second edition: one player's farms together; each point above 3 per city is a pig city.
    points = int(data["points"])
    text = f.t("score.farm_second", name=f.name(owners[0]), cities=cities)
    pig_cities = points - 3 * count
    if pig_cities:
        text = f.t("score.farm_second_pig", text=text, count=pig_cities)
    return f.t("score.total", text=text, points=points)


_CARCASSONNE: dict[str, Callable[[_Facts], str]] = {
    "place": lambda f: f.t(
        "event.place",
        name=f.name(f.seat),
        tile=f.data["tile"],
        x=f.data["x"],
        y=f.data["y"],
        rot=f.data["rot"],
    ),
    "builder": lambda f: f.t("event.builder", name=f.name(f.seat)),
    "no_figure": lambda f: f.t("event.no_figure", name=f.name(f.seat)),
    "figure": lambda f: f.t(
        "event.figure",
        name=f.name(f.seat),
        figure=f.t(f"figure.{f.data['kind']}"),
        segment=f.data["segment"],
        x=f.data["x"],
        y=f.data["y"],
    ),
    "tile_discarded": lambda f: f.t(
        "event.tile_discarded", tile=f.data["tile"], name=f.name(f.seat)
    ),
    "game_over": _carcassonne_over,
    "left": lambda f: f.t("event.carcassonne_left", name=f.name(f.seat)),
    "goods": _goods,
    "figure_returned": lambda f: f.t(
        "event.figure_returned",
        name=f.name(f.seat),
        figure=f.t(f"figure.{f.data['kind']}"),
        x=f.data["x"],
        y=f.data["y"],
    ),
    "score": _score,
}
