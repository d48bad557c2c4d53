"""Flow of play: applying actions, passing the turn, dealing, the exchange, leaving.

Every random event follows N-4.1: ``random.Random(seed)`` is used for that one event and
the state's seed becomes ``rng.getrandbits(64)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.protocol import Event, IllegalMove
from engine.race.board import Work
from engine.race.cards import sort_cards
from engine.race.geometry import HOME, KENNEL, Config, is_home, loc_text
from engine.race.move import Move
from engine.race.seven import SevenSearch, board_code
from engine.race.state import Board, Seven, State

TOCK_SIZES: dict[int, tuple[int, ...]] = {
    2: (5, 5, 4, 4, 4, 4),
    3: (5, 4, 4, 4),
    4: (5, 4, 4),
    5: (5, 5),
    6: (4, 4),
}
DOG_SIZES: tuple[int, ...] = (6, 5, 4, 3, 2)


def next_seed(rng: random.Random) -> int:
    """The seed stored after a random event (N-4.1)."""
    return rng.getrandbits(64)


def shuffled(cards: Iterable[str], seed: int) -> tuple[tuple[str, ...], int]:
    """Shuffle per N-4.4; returns (pile with index 0 on top, next seed)."""
    rng = random.Random(seed)
    pile = list(sort_cards(cards))
    rng.shuffle(pile)
    return tuple(pile), next_seed(rng)


def random_card(hand: tuple[str, ...], seed: int) -> tuple[str, int]:
    """A uniformly random card of a hand (N-4.3); returns (card, next seed)."""
    rng = random.Random(seed)
    ordered = sort_cards(hand)
    card = ordered[rng.randrange(len(ordered))]
    return card, next_seed(rng)


def remove_card(hand: tuple[str, ...], token: str) -> tuple[str, ...]:
    """``hand`` without one ``token``."""
    i = hand.index(token)
    return hand[:i] + hand[i + 1 :]


Hands = tuple[tuple[str, ...], ...]


def set_seat(items: Hands, seat: int, value: tuple[str, ...]) -> Hands:
    """``items`` with entry ``seat`` replaced."""
    return (*items[:seat], value, *items[seat + 1 :])


# -- winning ---------------------------------------------------------------------------


def winning_side(state: State) -> tuple[int, ...] | None:
    """The seats of a side whose pawns are all home (T-12, D-13), if any."""
    return winning_side_of(state.cfg, state.pawns)


def winning_side_of(cfg: Config, pawns: Board) -> tuple[int, ...] | None:
    """:func:`winning_side` of a board ``pawns`` (4 sorted locations per seat)."""
    # Sorted locations: ring < home < kennel, so the first and last pawn decide.
    complete = [s for s in cfg.seats if pawns[s][0] >= HOME and pawns[s][-1] < KENNEL]
    if not complete:
        return None
    if cfg.teams is None:
        return (complete[0],)
    for side in cfg.teams:
        if all(s in complete for s in side):
            return tuple(sorted(side))
    return None


# -- turns and deals -------------------------------------------------------------------


def begin_turn(state: State) -> State:
    """Start the turn of ``state.turn``: a left seat's guard ends now (C-13.6)."""
    if state.phase == "play" and state.turn in state.left and state.turn in state.guards:
        return state.evolve(guards=state.guards - {state.turn})
    return state


def pass_turn(state: State, actor: int, events: list[Event]) -> State:
    """Give the turn to the next seat holding cards after ``actor`` (C-10.2), or deal."""
    seat = next_holder(state.cfg, state.hands, state.folded, actor)
    if seat is None:
        return next_deal(state, events)
    return begin_turn(state.evolve(turn=seat, events=tuple(events)))


def next_holder(cfg: Config, hands: Hands, folded: frozenset[int], actor: int) -> int | None:
    """The next seat after ``actor`` holding cards and not folded (C-10.2), if any."""
    seat = actor
    following = cfg.following
    for _ in cfg.seats:
        seat = following[seat]
        if hands[seat] and seat not in folded:
            return seat
    return None


def next_deal(state: State, events: list[Event]) -> State:
    """End the hand / round and deal the next one (T-4, D-4)."""
    cfg = state.cfg
    what = "round" if cfg.is_dog else "hand"
    events.append(Event("hand_over", None, {what: state.number}))
    return deal(
        state.evolve(banned=False, folded=frozenset(), deals=state.deals + 1),
        cfg.next_seat(state.dealer),
        state.number + 1,
        events,
    )


def deal(state: State, dealer: int, number: int, events: list[Event]) -> State:
    """Deal hand/round ``number`` with ``dealer`` (C-10.4), then start the exchange or play."""
    cfg = state.cfg
    seats = cfg.seats
    draw, discard, seed = state.draw, state.discard, state.seed
    if cfg.is_dog:
        size = DOG_SIZES[(number - 1) % len(DOG_SIZES)]
        if len(draw) < size * len(seats):
            draw, seed = shuffled(draw + discard, seed)
            discard = ()
            events.append(Event("shuffle", None, {"cycle": False}))
    else:
        sizes = TOCK_SIZES[cfg.players]
        if number > len(sizes) or len(draw) < sizes[number - 1] * len(seats):
            number = 1
            draw, seed = shuffled(draw + discard, seed)
            discard = ()
            events.append(Event("shuffle", None, {"cycle": True}))
        size = sizes[number - 1]
    hands = [list(h) for h in state.hands]
    order = []
    seat = dealer
    for _ in seats:
        seat = cfg.next_seat(seat)
        order.append(seat)
    pos = 0
    for _ in range(size):
        for s in order:
            hands[s].append(draw[pos])
            pos += 1
    draw = draw[pos:]
    first = order[0]
    events.append(
        Event(
            "deal",
            dealer,
            {"dealer": dealer, "size": size, ("round" if cfg.is_dog else "hand"): number},
        )
    )
    new = state.evolve(
        hands=tuple(sort_cards(h) for h in hands),
        draw=draw,
        discard=discard,
        seed=seed,
        dealer=dealer,
        number=number,
        turn=first,
        banned=False,
        folded=frozenset(),
        exchange=(),
        received=(),
        phase="exchange" if cfg.teams is not None else "play",
        events=tuple(events),
    )
    if new.phase == "exchange":
        for s in sorted(new.left):
            if new.phase == "exchange":
                new = auto_pick(new, s, list(new.events))
        return new
    return begin_turn(new)


# -- the exchange ------------------------------------------------------------------------


def pick(state: State, seat: int, token: str, events: list[Event]) -> State:
    """Seat ``seat`` picks ``token`` for its partner (C-10.5)."""
    picks = dict(state.exchange)
    picks[seat] = token
    events.append(Event("pick", seat, {}))
    events.append(Event("pick_made", seat, {"card": token}, public=False))
    cfg = state.cfg
    if len(picks) < len(cfg.seats):
        return state.evolve(exchange=tuple(sorted(picks.items())), events=tuple(events))
    hands = list(state.hands)
    for s, card in picks.items():
        hands[s] = remove_card(hands[s], card)
    received = []
    for s, card in picks.items():
        p = cfg.partner[s]
        hands[p] = sort_cards((*hands[p], card))
        received.append((p, card))
    events.append(Event("exchange_done", None, {}))
    for p, card in sorted(received):
        events.append(
            Event(
                "exchange_received",
                p,
                {"card": card, "from": cfg.partner[p]},
                public=False,
            )
        )
    new = state.evolve(
        hands=tuple(hands),
        exchange=(),
        received=tuple(sorted(received)),
        phase="play",
        events=tuple(events),
    )
    if not new.hands[new.turn]:
        return pass_turn(new, new.turn, events)
    return begin_turn(new)


def auto_pick(state: State, seat: int, events: list[Event]) -> State:
    """A random exchange pick for ``seat`` (C-13.2)."""
    card, seed = random_card(state.hands[seat], state.seed)
    return pick(state.evolve(seed=seed), seat, card, events)


# -- card plays ----------------------------------------------------------------------------


def seven_path(
    cfg: Config, seat: int, frm: int, to: int, steps: int | None = None
) -> tuple[int, ...]:
    """The locations a pawn of ``seat`` enters going forward from ``frm`` to ``to``."""
    table = cfg.forward[seat][frm]
    for n in range(1, 8):
        for walk in table[n]:
            if walk.target == to and (steps is None or steps == n):
                return walk.path
    raise IllegalMove(f"no forward path from {loc_text(frm)} to {loc_text(to)}")


def finish_play(
    state: State,
    work: Work,
    seat: int,
    card: str,
    rank: str,
    auto: bool,
    hands: Hands | None = None,
    movers: list[int] | None = None,
) -> State:
    """Common end of a card play: new board, discard pile, win check, ban, next turn.

    ``hands`` are the hands after the play if ``state`` still holds the card. ``movers``
    are the only colours that can have finished with this play (``None``: any). The new
    state is made in one step (this is the hot path of every card play).
    """
    pawns, guards = work.board()
    events = work.events
    cfg = state.cfg
    if hands is None:
        hands = state.hands
    changes = {
        "pawns": pawns,
        "guards": guards,
        "hands": hands,
        "discard": (*state.discard, card),
        "banned": False,
        "seven": None,
    }
    finished = False
    for s in cfg.seats if movers is None else movers:
        locs = pawns[s]
        if locs and locs[0] >= HOME and locs[-1] < KENNEL:
            finished = True
            break
    win = winning_side_of(cfg, pawns) if finished else None
    if win is not None:
        events.append(Event("game_over", None, {"winners": list(win)}))
        changes.update(phase="finished", winner=win, events=tuple(events))
        return state.evolve(**changes)
    if rank == "10" and not auto and not cfg.is_dog:
        # T-8.1: the 10 bans the next seat, if it still holds cards.
        nxt = cfg.next_seat(seat)
        if hands[nxt]:
            events.append(Event("ban", nxt, {"by": seat}))
            changes.update(banned=True, turn=nxt, events=tuple(events))
            return begin_turn(work.settle(state.evolve(**changes)))
    turn = next_holder(cfg, hands, state.folded, seat)
    if turn is None:
        return next_deal(state.evolve(**changes), events)
    changes["turn"] = turn
    changes["events"] = tuple(events)
    return begin_turn(work.settle(state.evolve(**changes)))


def after_card(state: State, seat: int, bans: bool, events: list[Event]) -> State:
    """Apply a 10-ban if any (T-8.1) and pass the turn."""
    if bans:
        nxt = state.cfg.next_seat(seat)
        if state.hands[nxt]:
            events.append(Event("ban", nxt, {"by": seat}))
            state = state.evolve(banned=True)
            return begin_turn(state.evolve(turn=nxt, events=tuple(events)))
    return pass_turn(state, seat, events)


def play(state: State, move: Move, auto: bool = False) -> State:
    """Carry out a legal move of the seat in turn."""
    seat, kind, card = move[1], move[2], move[3]
    if kind == "pick":
        return pick(state, seat, card, [])
    events: list[Event] = []
    if kind == "discard":
        hand = remove_card(state.hands[seat], card)
        events.append(
            Event(
                "discard",
                seat,
                # Why the card goes: a 10's ban, the clock, or no card could move a pawn.
                {"card": card, "auto": auto, "banned": state.banned},
            )
        )
        new = state.evolve(
            hands=set_seat(state.hands, seat, hand),
            discard=(*state.discard, card),
            banned=False,
        )
        return after_card(new, seat, card == "10" and not auto, events)
    if kind == "fold":
        events.append(Event("fold", seat, {"auto": auto}))
        new = state.evolve(
            hands=set_seat(state.hands, seat, ()),
            discard=state.discard + state.hands[seat],
            folded=state.folded | {seat},
        )
        return pass_turn(new, seat, events)
    if kind == "segment":
        return seven_segment(state, move)
    if kind == "partial":
        return seven_start(state, move)
    text, action = move[0], move[5]
    hands = set_seat(state.hands, seat, remove_card(state.hands[seat], card))
    work = Work(state)
    work.events.append(Event("play", seat, {"card": card, "move": text}))
    what = action[0]
    if what == "walk":
        work.walk(action[1], action[3], False, seat)
    elif what == "out":
        work.bring_out(action[1], seat)
    elif what == "swap":
        work.swap(action[1], action[2], seat)
    elif what == "steps":
        cfg = state.cfg
        for seg in action[1]:
            frm = seg[0]
            path = seven_path(cfg, work.occ[frm], frm, seg[-1])
            work.walk(frm, path, True, seat)
    # "null": nothing moves.
    # Only a colour that walked or came out can have finished with this play.
    return finish_play(state, work, seat, card, move[4], auto, hands, work.movers)


# -- the 7, segment by segment ---------------------------------------------------------------


def seven_search(state: State) -> SevenSearch:
    """A search over the pending 7 of ``state``."""
    seven = state.seven
    assert seven is not None
    search = SevenSearch(
        state.cfg,
        state.occupancy(),
        state.guarded_fields(),
        seven.colour,
        state.turn,
        carry=state.cfg.is_dog,
        moved=seven.moved,
    )
    # In Dog the colour switches to the partner once the own colour is complete; a loaded
    # position names it directly.
    search.base_colour = seven.colour
    return search


def seven_start(state: State, move: Move) -> State:
    """Play the first segment of a 7 and leave it pending (N-5.3)."""
    seat = move.seat
    hand = remove_card(state.hands[seat], move.card)
    colour = state.moved_colour(seat)
    pending = Seven(
        card=move.card,
        colour=colour,
        left=7,
        moved=frozenset(),
        start_board=state.pawns,
        start_guards=state.guards,
    )
    state = state.evolve(hands=set_seat(state.hands, seat, hand), seven=pending, banned=False)
    return seven_segment(state, move)


def seven_segment(state: State, move: Move) -> State:
    """Make one segment of the pending 7; finish the play after the seventh step."""
    seven = state.seven
    assert seven is not None
    seat = state.turn
    frm, steps, to = move.action[1][0]
    work = Work(state)
    path = seven_path(state.cfg, work.occ[frm], frm, to, steps)
    burnt = {loc for loc in path if loc < HOME and loc in work.occ}
    work.walk(frm, path, burn=True, actor=seat)
    pawns, guards = work.board()
    moved = set(seven.moved) - burnt
    moved.discard(frm)
    moved.add(to)
    left = seven.left - steps
    colour = seven.colour
    cfg = state.cfg
    if (
        cfg.is_dog
        and colour == seat
        and cfg.partner[seat] >= 0
        and all(is_home(loc) for loc in pawns[seat])
    ):
        # D-10.2: the own colour is complete, the rest of the 7 moves the partner's pawns.
        colour = cfg.partner[seat]
    done = (*seven.done, (frm, to))
    if left > 0:
        pending = Seven(
            seven.card, colour, left, frozenset(moved), seven.start_board, seven.start_guards, done
        )
        return state.evolve(pawns=pawns, guards=guards, seven=pending, events=tuple(work.events))
    text = _seven_log(state, seven, done, pawns, guards)
    work.events.insert(
        0,
        Event("play", seat, {"card": seven.card, "move": text}),
    )
    rank = "7"
    return finish_play(state, work, seat, seven.card, rank, auto=False)


def _seven_log(
    state: State,
    seven: Seven,
    done: tuple[tuple[int, int], ...],
    pawns: tuple[tuple[int, ...], ...],
    guards: frozenset[int],
) -> str:
    """The canonical text of a completed 7 (C-8.7), or the segments made if unknown."""
    prefix = "7" if seven.card == "7" else "X=7"
    plain = prefix + ":" + ",".join(f"{loc_text(a)}-{loc_text(b)}" for a, b in done)
    if seven.start_board is None:
        return plain
    start = state.evolve(pawns=seven.start_board, guards=seven.start_guards)
    search = SevenSearch(
        state.cfg,
        start.occupancy(),
        start.guarded_fields(),
        start.moved_colour(state.turn),
        state.turn,
        carry=state.cfg.is_dog,
    )
    end = state.evolve(pawns=pawns, guards=guards)
    target = board_code(end.occupied(), end.guarded_fields())
    keys = search.outcomes(7).get(target)
    if keys is None:
        return plain
    return prefix + ":" + ",".join(f"{loc_text(k[0])}-{loc_text(k[2])}" for k in keys)


def cut_seven(state: State, auto_events: list[Event]) -> State:
    """A 7 cut short by a leaving / timed-out seat (C-13.5): keep the steps, pass the turn."""
    seven = state.seven
    assert seven is not None
    seat = state.turn
    prefix = "7" if seven.card == "7" else "X=7"
    text = prefix + ":" + ",".join(f"{loc_text(a)}-{loc_text(b)}" for a, b in seven.done)
    auto_events.append(
        Event(
            "seven_cut",
            seat,
            {"card": seven.card, "move": text},
        )
    )
    work = Work(state.evolve(seven=None))
    work.events = auto_events
    return finish_play(state, work, seat, seven.card, "7", auto=True)
