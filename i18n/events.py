"""Engine events as sentences, in every language English included.

The engines emit facts only (``kind``, ``seat``, ``data``; see :class:`engine.protocol.Event`).
:func:`event_message` turns one event into a :class:`~i18n.message.Message` (a catalogue key
and its parameters) that each reader gets in their own language; :func:`event_text` says it at
once. Places on a race board are said from the pawn owner's start ("3 fields past its start",
"home 2"), Carcassonne features as a player sees them on the tile ("the city to the north"),
cards with their article ("a Jack"). Events that another sentence already says (a pick the
table service announces, a game over the turn line announces) are not said twice: they have no
message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from i18n.catalog import game_terms, has_key
from i18n.message import Message, Said, joined, msg

#: How sentences name seats: a mapping or sequence of names (messages or text) per seat.
Names = Mapping[int, Any] | Sequence[Any] | None


def colour_word(seat: int, locale: object, game: str = "tock") -> str:
    """The colour of ``seat`` as the engines name it, in ``locale``."""
    return colour(seat, game).text(locale)


def colour(seat: int, game: str = "tock") -> Message:
    """The colour of ``seat`` as a message (the board's colours differ per game)."""
    prefix = "colour.carcassonne" if game == "carcassonne" else "colour"
    return msg(f"{prefix}.{seat % 6}")


def card_short(token: str) -> Message | str:
    """A card as its face shows it, for buttons: ``K`` (``K`` / ``K``), ``J`` (``B``), a
    number as itself."""
    return msg(f"card.{token}") if has_key(f"card.{token}") else token


def card_word(token: str, *, article: bool = False) -> Message:
    """A card by its hand token (``J`` -> Jack / Bube / bubi); ``article``: as the object of
    a sentence ("plays a Jack", "spielt einen Buben", "kijátszik egy bubit")."""
    return msg(f"card.{'acc' if article else 'name'}.{token}")


def card_name(token: str, locale: object) -> str:
    """A card's name in ``locale`` (``Q`` -> Queen / Dame / Dáma), for images and captions."""
    key = f"card.name.{token}"
    return card_word(token).text(locale) if has_key(key) else token


def card_as(kind: str) -> Message:
    """The kind a joker is played as, said after "as": ``a Jack``, ``als Buben`` (German
    puts the weak noun in the case of the joker it stands beside), ``bubi helyett``."""
    return msg(f"card.as.{kind}")


def place_words(
    loc: str, owner: int, board: Mapping[str, Any] | None, own: bool = False
) -> Message:
    """Where a race pawn of ``owner`` stands, in players' terms.

    Ring fields are counted from the owner's start field (the end of a lap is "3 fields
    before its start", which is where its home branches off); ``own`` says "your" instead of
    "its" (for the owner's own prompts). Without the board's size the field number is said.
    """
    whose = "own" if own else "its"
    if loc.startswith("h"):
        return msg(f"where.{whose}.home", slot=int(loc.rpartition(".")[2]))
    if loc.startswith("k"):
        return msg(f"where.{whose}.kennel")
    field = int(loc[1:])
    if not board:
        return msg("where.field", number=field)
    ring, per_seat = int(board["ring"]), int(board["per_seat"])
    ahead = (field - per_seat * owner) % ring
    if ahead == 0:
        return msg(f"where.{whose}.start")
    if ahead <= ring // 2:
        return msg(f"where.{whose}.past_start", count=ahead)
    return msg(f"where.{whose}.before_start", count=ring - ahead)


def _ahead(loc: str, owner: int, board: Mapping[str, Any] | None) -> int | None:
    """How far a ring field is past ``owner``'s start (None off the ring or unknown)."""
    if not board or not loc.startswith("r"):
        return None
    ring, per_seat = int(board["ring"]), int(board["per_seat"])
    return (int(loc[1:]) - per_seat * owner) % ring


def walk_words(
    start: str, end: str, owner: int, board: Mapping[str, Any] | None, own: bool = False
) -> Message:
    """A pawn's way from ``start`` to ``end`` in players' terms: ``12 → 17 fields past its
    start`` when both ends count from the same side of the start, else each end in words."""
    whose = "own" if own else "its"
    first, second = _ahead(start, owner, board), _ahead(end, owner, board)
    if first is not None and second is not None and board:
        half = int(board["ring"]) // 2
        if 0 < first <= half and second <= half:  # from the start field itself: said in words
            return msg(f"where.{whose}.span_past", start=first, count=second)
        if first > half and second > half:
            ring = int(board["ring"])
            return msg(f"where.{whose}.span_before", start=ring - first, count=ring - second)
    if own and first == 0:
        # "your pawn your start field → …" says "your" twice: "your pawn from your start …"
        return msg("where.own.span_from_start", end=place_words(end, owner, board, own))
    return msg(
        "where.span",
        start=place_words(start, owner, board, own),
        end=place_words(end, owner, board, own),
    )


def feature_words(kind: str, sides: Sequence[str], *, onto: bool = False) -> Message:
    """A Carcassonne feature as a player sees it on the tile: ``the city to the north``,
    ``the field to the south and west``, ``the monastery``.

    ``onto``: the place a figure is put, with the preposition each feature takes (*in the
    city*, *on the road*; German *in die Stadt*, *auf die Wiese*, *ins Kloster*).
    """
    base = kind.rstrip("0123456789")
    prefix = "feature.onto" if onto else "feature"
    if base == "monastery":
        return msg(f"{prefix}.monastery")
    if not sides:
        return msg(f"{prefix}.{base}.middle")
    return msg(f"{prefix}.{base}.sides", sides=[msg(f"side.{side}") for side in sides])


def event_message(
    event: Mapping[str, Any],
    *,
    game: str,
    names: Names = None,
    board: Mapping[str, Any] | None = None,
) -> Message | None:
    """The sentence of ``event`` (an ``Event.to_json()`` dict), or None when it is not said.

    ``names``: how to call seats (Carcassonne uses the players' names; race games call a seat
    by its colour, as the board shows it); ``board``: a race view's ``board`` (ring size and
    fields per seat), for places in words.
    """
    kind = str(event.get("kind", ""))
    build = _BUILDERS.get(game, {}).get(kind)
    if build is None:
        return None
    try:
        return build(_Facts(event, game, names, board))
    except (KeyError, IndexError, TypeError, ValueError):
        return msg("event.unknown")


#: Race events after which the pawns they knocked out are told: the move comes first.
_KNOCKING = frozenset({"move", "bring_out", "swap"})


def told_order(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``events`` in the order a player tells them: the engine reports a pawn sent back to
    its kennel before the move that lands on it; a player says the move first ("Green
    brings a pawn out onto its start field. Red's pawn is sent back to its kennel.")."""
    told: list[Mapping[str, Any]] = []
    waiting: list[Mapping[str, Any]] = []
    for event in events:
        if event.get("kind") == "capture":
            waiting.append(event)
            continue
        told.append(event)
        if event.get("kind") in _KNOCKING:
            told += waiting
            waiting = []
    return told + waiting


def event_messages(
    events: Sequence[Mapping[str, Any]],
    *,
    game: str,
    names: Names = None,
    board: Mapping[str, Any] | None = None,
) -> list[Message]:
    """The sentences of ``events`` that are said at all, in the order a player tells them
    (:func:`told_order`; see :func:`event_message`)."""
    said = (event_message(e, game=game, names=names, board=board) for e in told_order(events))
    return [m for m in said if m is not None]


#: Carcassonne events said on a line of their own: a feature's score, the end of the game.
_OWN_LINE = frozenset({"score", "game_over"})


def event_lines(
    events: Sequence[Mapping[str, Any]],
    *,
    game: str,
    names: Names = None,
    board: Mapping[str, Any] | None = None,
) -> list[Said]:
    """The sentences of ``events`` as the lines of a thread message: what the player did on
    one line, then each scored feature and the end of the game on a line of its own, so that
    a final scoring reads as one line per feature."""
    lines: list[Said] = []
    sentences: list[Message] = []
    for event in events:
        said = event_message(event, game=game, names=names, board=board)
        if said is None:
            continue
        if event.get("kind") in _OWN_LINE:
            if sentences:
                lines.append(joined(sentences))
                sentences = []
            lines.append(said)
        else:
            sentences.append(said)
    if sentences:
        lines.append(joined(sentences))
    return lines


def action_message(
    game: str, name: Any, details: Sequence[Message], head: Message | None = None
) -> Said:
    """How one action at a table is told: ``head`` (who picked, the rules acting for a seat)
    and then what happened (``details``, the events' sentences); a plain move as
    ``name: details``, except in Carcassonne, whose sentences name the player already.

    The thread says each action so when it is made, and ``/table log`` says it again so.
    """
    if head is not None:
        return joined([head, *details])
    if not details:
        return msg("table.moved", name=name)
    if game == "carcassonne":
        return joined(details)
    return msg("table.details", name=name, details=joined(details))


def event_text(
    event: Mapping[str, Any],
    locale: object,
    *,
    game: str,
    names: Names = None,
    board: Mapping[str, Any] | None = None,
) -> str:
    """The sentence of ``event`` in ``locale`` ("" for an event that is not said), in the
    words of ``game`` (German Dog's Pöppel)."""
    message = event_message(event, game=game, names=names, board=board)
    if message is None:
        return ""
    with game_terms(game):
        return message.text(locale)


class _Facts:
    """One event with helpers for the builders below."""

    def __init__(
        self,
        event: Mapping[str, Any],
        game: str,
        names: Names,
        board: Mapping[str, Any] | None,
    ) -> None:
        self.data: Mapping[str, Any] = event.get("data") or {}
        self.seat = event.get("seat")
        self.game = game
        self.names = names
        self.board = board

    def colour(self, seat: Any) -> Message:
        return colour(int(seat), self.game)

    def name(self, seat: Any) -> Any:
        seat = int(seat)
        names = self.names
        if isinstance(names, Mapping) and seat in names:
            return names[seat]
        if isinstance(names, Sequence) and not isinstance(names, str) and 0 <= seat < len(names):
            return names[seat]
        return colour(seat, self.game)

    def place(self, loc: str, owner: Any) -> Message:
        return place_words(str(loc), int(owner), self.board)


# --- race games ------------------------------------------------------------------------------


def _play(f: _Facts) -> Message:
    move = str(f.data["move"])
    null = "_null" if move.endswith(":N") else ""  # a Jack that swaps nothing (braendi)
    if move.startswith("X="):
        declared = move[2:].partition(":")[0]
        return msg(f"event.play_joker{null}", colour=f.colour(f.seat), card=card_as(declared))
    card = card_word(str(f.data["card"]), article=True)
    return msg(f"event.play{null}", colour=f.colour(f.seat), card=card)


def _discard(f: _Facts) -> Message:
    card = card_word(str(f.data["card"]), article=True)
    if f.data.get("banned"):
        return msg("event.discard_banned", colour=f.colour(f.seat), card=card)
    if f.data.get("auto"):
        return msg("event.discard_auto", colour=f.colour(f.seat), card=card)
    return stuck_words(f.data.get("stuck"), int(f.seat), f.game, card=card)


def stuck_words(
    facts: Mapping[str, Any] | None,
    seat: int,
    game: str,
    *,
    fold: bool = False,
    card: Message | None = None,
    own: bool = False,
) -> Message:
    """Why ``seat`` cannot play and discards ``card`` (Tock, T-5.3) or folds (Dog, D-6.2;
    ``fold``), from the facts of the engine's ``stuck_reason`` (None: not known).

    ``own``: said to the player in the hand prompt (``your pawns``, ``discard one card``),
    else said to the table. Blocking pawns are named by colour and by where they stand, as
    the board shows them: *the way is blocked by Blue's pawn on its start field*.
    """
    facts = facts or {}
    reason = facts.get("reason")
    if reason == "kennel" and facts.get("colour", seat) != seat:
        reason = "none"  # a finished player moving the partner's pawns: not "your pawns"
    suffix = {"kennel": "_kennel", "blocked": "_blocked"}.get(str(reason), "")
    if own:
        key = ("race.must_fold" if fold else "race.must_discard") + suffix
    elif fold:
        key = "event.fold" + suffix
    else:
        key = ("event.discard" if suffix else "event.discard_stuck") + suffix
    params: dict[str, Any] = {}
    if not own:
        params["colour"] = colour(seat, game)
        if not fold:
            params["card"] = card
    if suffix == "_blocked":
        by = [int(b) for b in facts.get("by") or ()]
        params["pawns"] = [
            msg("stuck.own_pawn")
            if own and b == seat
            else msg("stuck.pawn", colour=colour(b, game))
            for b in by
        ]
        params["count"] = len(by)
    return msg(key, **params)


def _swap(f: _Facts) -> Message:
    first, second = (int(c) for c in f.data["colours"])
    return msg(
        "event.swap",
        colour_a=f.colour(first),
        a=f.place(f.data["a"], first),
        colour_b=f.colour(second),
        b=f.place(f.data["b"], second),
    )


def _move(f: _Facts) -> Message:
    owner = int(f.data["colour"])
    way = walk_words(str(f.data["from"]), str(f.data["to"]), owner, f.board)
    return msg("event.move", colour=f.colour(owner), way=way)


_RACE: dict[str, Callable[[_Facts], Message | None]] = {
    "capture": lambda f: msg("event.capture", colour=f.colour(f.seat)),
    "move": _move,
    "bring_out": lambda f: msg("event.bring_out", colour=f.colour(f.data["colour"])),
    "swap": _swap,
    "hand_over": lambda f: msg("event.hand_over" if "hand" in f.data else "event.round_over"),
    "shuffle": lambda f: msg("event.new_cycle" if f.data.get("cycle") else "event.shuffle"),
    "deal": lambda f: msg("event.deal", colour=f.colour(f.seat), count=int(f.data["size"])),
    "dealer": lambda f: msg("event.dealer", colour=f.colour(f.seat)),
    # The table service says who picked (by name); the colour would say it twice.
    "pick": lambda f: None,
    "pick_made": lambda f: msg(
        "event.pick_made", card=card_word(str(f.data["card"]), article=True)
    ),
    "exchange_done": lambda f: msg("event.exchange_done"),
    "exchange_received": lambda f: msg(
        "event.exchange_received", card=card_word(str(f.data["card"]), article=True)
    ),
    # The end is said once, with the winners' names, by the table's own sentence.
    "game_over": lambda f: None,
    "ban": lambda f: msg("event.ban", colour=f.colour(f.seat)),
    "discard": _discard,
    "fold": lambda f: stuck_words(f.data.get("stuck"), int(f.seat), f.game, fold=True),
    "play": _play,
    "seven_cut": lambda f: msg("event.seven_cut", colour=f.colour(f.seat)),
    # The table service says who left and what happens to the seat.
    "left": lambda f: None,
}


# --- Carcassonne -----------------------------------------------------------------------------


def tile_words(tile: str) -> Message:
    """A Carcassonne tile in words: ``a tile with a city and two roads``."""
    from engine.carcassonne.tiles import SEGMENT_KINDS, TILES

    found = TILES.get(tile)
    if found is None:
        return msg("tile.words.unknown")
    counts: dict[str, int] = {}
    for segment in found.segments:
        kind = SEGMENT_KINDS[segment.kind]
        if kind != "field":
            counts[kind] = counts.get(kind, 0) + 1
    parts: list[Message] = [msg(f"tile.has.{kind}", count=n) for kind, n in counts.items()]
    if found.river:
        parts.append(msg("tile.has.river"))
    if not parts:
        return msg("tile.words.fields")
    return msg("tile.words", features=parts)


def _goods(f: _Facts) -> Message:
    got = [
        msg("goods.count", count=int(n), goods=msg(f"goods.{kind}"))
        for kind, n in f.data["goods"].items()
    ]
    return msg("event.goods", name=f.name(f.seat), goods=got)


def _carcassonne_over(f: _Facts) -> Message:
    scores = [
        msg("score.of", name=f.name(seat), count=int(points))
        for seat, points in enumerate(f.data["scores"])
    ]
    return msg("event.carcassonne_over", scores=scores)


def _score(f: _Facts) -> Message:
    """Any Carcassonne score, one sentence per feature: roads, cities, monasteries, farms of
    each edition, goods."""
    feature = f.data["feature"]
    if feature == "farm":
        return _farm(f)
    if feature == "goods":
        return msg(
            "score.goods_most",
            goods=msg(f"goods.{f.data['goods']}"),
            count=int(f.data["tokens"]),
            names=_owner_names(f),
        ).capitalised()
    total = msg("score.total", text=_feature_text(f).capitalised(), count=int(f.data["points"]))
    return _with_owners(f, total)


def _feature_text(f: _Facts) -> Message:
    """The breakdown of a road, city or monastery score, without its total."""
    data = f.data
    feature = data["feature"]
    final = bool(data.get("final"))
    if feature == "monastery":
        if final:
            return msg("score.monastery", count=int(data["tiles"]) - 1)
        return msg("score.monastery_complete")
    if feature not in ("road", "city"):
        raise ValueError(feature)
    tiles = msg("score.tiles", count=int(data["tiles"]))
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
    text = msg(key, tiles=tiles, mult=mult)
    shields = int(data.get("shields") or 0)
    if feature == "city" and shields:
        text = msg(
            "score.plus_shields", text=text, shields=msg("score.shields", count=shields), mult=mult
        )
    return text


def _owner_names(f: _Facts) -> list[Any]:
    return [f.name(o) for o in f.data["owners"]]


def _with_owners(f: _Facts, text: Message) -> Message:
    """``text`` followed by who scores it: one name, a tie, or nobody."""
    owners = [int(o) for o in f.data["owners"]]
    if not owners:
        return msg("score.nobody", text=text)
    if len(owners) == 1:
        return msg("score.owner", text=text, name=f.name(owners[0]))
    return msg("score.tie", text=text, names=_owner_names(f))


def _points_list(f: _Facts) -> list[int]:
    """Points per owner: farm events of the first and third editions give one per owner."""
    points = f.data["points"]
    owners = f.data["owners"]
    if isinstance(points, list):
        if len(points) != len(owners):
            raise ValueError("points and owners differ in length")
        return [int(p) for p in points]
    return [int(points)] * len(owners)


def _farm(f: _Facts) -> Message:
    """A farm score in the edition its data shows (K-9): third, second or first."""
    data = f.data
    owners = [int(o) for o in data["owners"]]
    if "city" in data:  # first edition: the farmers of one city, city by city
        parts = [
            msg("score.farm_first_part", name=f.name(o), count=p)
            for o, p in zip(owners, _points_list(f), strict=True)
        ]
        return msg("score.breakdown", text=msg("score.farm_first").capitalised(), parts=parts)
    count = int(data["cities"])
    cities = msg("score.cities", count=count)
    if isinstance(data["points"], list):  # third edition: each owner n × 3, or × 4 with a pig
        parts = []
        for owner, points in zip(owners, _points_list(f), strict=True):
            per = points // count
            key = "score.farm_part_pig" if per == 4 else "score.farm_part"
            parts.append(msg(key, name=f.name(owner), cities=count, per=per, count=points))
        third = msg("score.farm_third", cities=cities).capitalised()
        return msg("score.breakdown", text=third, parts=parts)
    # Second edition: one player's farms together; each point above 3 per city is a pig city.
    points = int(data["points"])
    text = msg("score.farm_second", name=f.name(owners[0]), cities=cities).capitalised()
    pig_cities = points - 3 * count
    if pig_cities:
        text = msg("score.farm_second_pig", text=text, pigs=pig_cities)
    return msg("score.farm_total", text=text, count=points)


def _figure(f: _Facts) -> Message:
    where = feature_words(str(f.data["segment"]), list(f.data.get("sides") or ()), onto=True)
    return msg(
        "event.figure",
        name=f.name(f.seat),
        figure=msg(f"figure.acc.{f.data['kind']}"),
        feature=where,
    )


_CARCASSONNE: dict[str, Callable[[_Facts], Message | None]] = {
    "place": lambda f: msg(
        "event.place", name=f.name(f.seat), tile=tile_words(str(f.data["tile"]))
    ),
    "builder": lambda f: msg("event.builder", name=f.name(f.seat)),
    "no_figure": lambda f: msg("event.no_figure", name=f.name(f.seat)),
    "figure": _figure,
    "tile_discarded": lambda f: msg(
        "event.tile_discarded", tile=tile_words(str(f.data["tile"])), name=f.name(f.seat)
    ),
    "game_over": _carcassonne_over,
    "left": lambda f: None,
    "goods": _goods,
    "figure_returned": lambda f: msg(
        "event.figure_returned", name=f.name(f.seat), figure=msg(f"figure.{f.data['kind']}")
    ),
    "score": _score,
}


#: The event builders of each game (a game without any has no events said).
_BUILDERS = {"tock": _RACE, "dog": _RACE, "carcassonne": _CARCASSONNE}
