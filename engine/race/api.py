"""The game-protocol functions shared by Tock and Dog (see :mod:`engine.protocol`)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from engine.protocol import (
    Event,
    IllegalMove,
    InvalidOptions,
    OptionSpec,
    Outcome,
    validate_options,
)
from engine.race import flow
from engine.race.board import colour_name
from engine.race.cards import TOKENS, sort_cards
from engine.race.geometry import TEAMS_4, TEAMS_6, kennel, loc_text, make_config, parse_loc
from engine.race.move import Move
from engine.race.movegen import Plays, card_part, card_plays, sort_key
from engine.race.position import load, write
from engine.race.seven import SevenSearch
from engine.race.state import State

_WALK = r"(?:r(?:0|[1-9][0-9]*)|h[0-5]\.[1-4])-(?:r(?:0|[1-9][0-9]*)|h[0-5]\.[1-4])"
_RANK = r"(?:10|[2-9]|[AJQK])"
_PLAY = re.compile(
    rf"(?P<card>{_RANK}|X={_RANK}):(?P<action>E[0-5]?|N|{_WALK}(?:,{_WALK})*"
    r"|r(?:0|[1-9][0-9]*)<>r(?:0|[1-9][0-9]*))"
)
_DISCARD = re.compile(rf"(?P<token>{_RANK}|X):D")
_PICK = re.compile(rf"G:(?P<token>{_RANK}|X)")
_SEGMENT = re.compile(_WALK)

# Cache keys of a state's legal moves per seat (built once: looked up on every action).
_LEGAL = tuple(f"legal{seat}" for seat in range(6))
_SORTED = tuple(f"sorted{seat}" for seat in range(6))
_PLAYS = tuple(f"plays{seat}" for seat in range(6))
#: ``seats_to_act`` while a card is to be played: the seat in turn alone (shared sets).
_ALONE = tuple(frozenset({seat}) for seat in range(6))


class RaceGame:
    """One race game (``"tock"`` or ``"dog"``); the modules bind its methods."""

    def __init__(
        self, name: str, player_counts: tuple[int, ...], options: tuple[OptionSpec, ...]
    ) -> None:
        self.name = name
        self.player_counts = player_counts
        self.options = options

    # -- creating ---------------------------------------------------------------------

    def new_game(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        """A new game per N-4.5; :class:`InvalidOptions` names a bad option."""
        opts = validate_options(self.options, options)
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidOptions(f"players must be one of {counts}, got {players!r}")
        if self.name == "dog":
            teams: tuple[tuple[int, ...], ...] | None = TEAMS_4 if players == 4 else TEAMS_6
            game_opts: tuple[tuple[str, Any], ...] = (("preset", opts["ruleset"]),)
        else:
            kind = opts["game_type"]
            if kind == "2v2" and players != 4:
                raise InvalidOptions(
                    "option 'game_type' 2v2 needs exactly 4 players",
                    option="game_type",
                    value=kind,
                    players=4,
                )
            if kind == "2v2v2" and players != 6:
                raise InvalidOptions(
                    "option 'game_type' 2v2v2 needs exactly 6 players",
                    option="game_type",
                    value=kind,
                    players=6,
                )
            teams = {"ffa": None, "2v2": TEAMS_4, "2v2v2": TEAMS_6}[kind]
            game_opts = tuple(sorted((k, opts[k]) for k in ("seven", "quick_start", "variant5")))
        cfg = make_config(self.name, players, game_opts, teams)
        pawns: list[tuple[int, ...]] = [() for _ in range(cfg.positions)]
        guards = set()
        quick = not cfg.is_dog and bool(opts.get("quick_start"))
        for s in cfg.seats:
            if quick:
                pawns[s] = (cfg.start[s], kennel(s), kennel(s), kennel(s))
                guards.add(s)
            else:
                pawns[s] = (kennel(s),) * 4
        rng = random.Random(seed)
        dealer = cfg.seats[rng.randrange(len(cfg.seats))]
        seed2 = flow.next_seed(rng)
        events = [Event("dealer", dealer, {"dealer": dealer})]
        cards = [t for t, n in cfg.deck.items() for _ in range(n)]
        draw, seed3 = flow.shuffled(cards, seed2)
        events.append(Event("shuffle", None, {"cycle": False}))
        state = State(
            cfg=cfg,
            pawns=tuple(pawns),
            guards=frozenset(guards),
            hands=tuple(() for _ in range(cfg.positions)),
            draw=draw,
            seed=seed3,
            dealer=dealer,
        )
        return flow.deal(state, dealer, 1, events)

    def from_position(self, data: dict[str, Any]) -> State:
        """Load a position (N-3); :class:`InvalidPosition` names the broken rule."""
        return load(data, self.name)

    def to_position(self, state: State) -> dict[str, Any]:
        """The position of ``state`` in normal form (N-3.6)."""
        return write(state)

    # -- questions ------------------------------------------------------------------------

    def seats_to_act(self, state: State) -> frozenset[int]:
        """Seats owing a decision: unpicked seats in an exchange, else the seat in turn."""
        phase = state.phase
        if phase == "play":
            return _ALONE[state.turn]
        if phase == "exchange":
            picked = {s for s, _ in state.exchange}
            return frozenset(s for s in state.cfg.seats if s not in picked)
        return frozenset()

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the game runs, else the winners."""
        if state.phase != "finished" or state.winner is None:
            return None
        return Outcome(winners=state.winner)

    def _plays(self, state: State, seat: int) -> Plays:
        key = _PLAYS[seat]
        cached: Plays | None = state.cache.get(key)
        if cached is None:
            cached = card_plays(state, seat)
            state.cache[key] = cached
        return cached

    def _legal(self, state: State, seat: int) -> dict[str, Move]:
        """The legal moves of ``seat`` by text; caches them and their display order."""
        if seat not in state.cfg.seats:
            return {}  # a seat not in the game owes nothing
        cache = state.cache
        key = _LEGAL[seat]
        cached: dict[str, Move] | None = cache.get(key)
        if cached is not None:
            return cached
        moves: dict[str, Move] = {}
        ordered: list[Move] | None = None  # None: the dict is in display order already
        hand = state.hands[seat]
        phase = state.phase
        if phase == "play" and seat == state.turn:
            if state.seven is not None:
                search = flow.seven_search(state)
                for frm, to, steps in search.segments(state.seven.left):
                    text = f"{loc_text(frm)}-{loc_text(to)}"
                    moves[text] = Move(
                        text,
                        seat,
                        "segment",
                        state.seven.card,
                        "7",
                        ("steps", ((frm, steps, to),), True),
                    )
                ordered = sorted(moves.values(), key=sort_key)
            elif state.banned:
                moves = self._discards(seat, hand)
            else:
                plays = self._plays(state, seat)
                if plays[0]:
                    # The generator's dict and order are this state's own (never changed).
                    moves, ordered = plays[0], plays[3]
                elif state.cfg.is_dog:
                    moves = {"F": Move("F", seat, "fold")}
                else:
                    moves = self._discards(seat, hand)
        elif phase == "exchange":
            # Hands are kept in card order (N-2.2): their distinct tokens are in order too.
            memo = state.cfg.memo
            for token in dict.fromkeys(hand):
                move = memo.get(("pick", seat, token))
                if move is None:
                    text = f"G:{token}"
                    move = memo["pick", seat, token] = Move(text, seat, "pick", token, token)
                moves[move[0]] = move
        cache[key] = moves
        cache[_SORTED[seat]] = list(moves.values()) if ordered is None else ordered
        return moves

    @staticmethod
    def _discards(seat: int, hand: tuple[str, ...]) -> dict[str, Move]:
        """One discard per distinct token, in card order (N-7.1)."""
        return {f"{t}:D": Move(f"{t}:D", seat, "discard", t, t) for t in sort_cards(set(hand))}

    def legal_moves(self, state: State, seat: int | None = None) -> list[Move]:
        """The legal moves of ``seat`` (default: the seat to act), N-7, in display order."""
        if seat is None:
            to_act = sorted(self.seats_to_act(state))
            if not to_act:
                return []
            seat = state.turn if state.turn in to_act else to_act[0]
        elif seat not in state.cfg.seats:
            return []  # a seat not in the game owes nothing
        key = _SORTED[seat]
        cached: list[Move] | None = state.cache.get(key)
        if cached is None:
            self._legal(state, seat)
            cached = state.cache[key]
        return list(cached)

    def seven_starts(self, state: State, card: str, seat: int | None = None) -> list[Move]:
        """Acceptable first segments (N-5.3) for ``card`` (``"7"`` or ``"X"``) in hand.

        Each is a move ``7:a-b`` / ``X=7:a-b``; one of 7 steps completes the play, shorter
        ones leave a pending 7 whose further segments ``legal_moves`` lists.
        """
        seat = state.turn if seat is None else seat
        if (
            state.phase != "play"
            or seat != state.turn
            or state.seven is not None
            or state.banned
            or card not in ("7", "X")
            or card not in state.hands[seat]
            or (card == "X" and not state.cfg.is_dog)
        ):
            return []
        if state.cfg.seven_single:
            return [
                m for m in self._legal(state, seat).values() if m.card == card and m.rank == "7"
            ]
        key = f"starts{seat}{card}"
        cached: list[Move] | None = state.cache.get(key)
        if cached is not None:
            return cached
        search = SevenSearch(
            state.cfg,
            state.occupancy(),
            state.guarded_fields(),
            state.moved_colour(seat),
            seat,
            carry=state.cfg.is_dog,
        )
        prefix = card_part(card, "7")
        result = []
        for frm, to, steps in search.segments(7):
            text = f"{prefix}:{loc_text(frm)}-{loc_text(to)}"
            action = ("steps", ((frm, steps, to),), True)
            kind = "play" if steps == 7 else "partial"
            result.append(Move(text, seat, kind, card, "7", action))
        if any(m.kind == "play" for m in result):
            # A complete one-segment 7 is a legal play: use its canonical entry.
            legal = self._legal(state, seat)
            result = [legal.get(m.text, m) if m.kind == "play" else m for m in result]
        state.cache[key] = result
        return result

    # -- parsing and applying ---------------------------------------------------------------

    def stuck_reason(self, state: State, seat: int | None = None) -> dict[str, Any] | None:
        """Why ``seat`` (default: the seat in turn) has no card play and must discard (T-5.3)
        or fold (D-6.2), as facts; None when it has a play or owes no card play now.

        * ``{"reason": "kennel", "colour": c}``: every pawn of the moved colour ``c`` is in
          its kennel, and no card in the hand brings one out;
        * ``{"reason": "blocked", "colour": c, "by": [s, …]}``: guarded pawns (C-3.2), each on
          its own start field ``s``, block the way: without one of those guards some card
          could move a pawn (a swap aside: a guarded pawn is not swapped, it blocks nothing);
        * ``{"reason": "none", "colour": c}``: no card can move a pawn for another reason (the
          counts do not fit, a home is full, no pawn to swap with).

        Not part of move generation: it is asked only when a forced discard or fold is shown,
        and then generates the plays again on boards with a guard lifted.
        """
        if seat is None:
            seat = state.turn
        if (
            state.phase != "play"
            or seat != state.turn
            or state.seven is not None
            or state.banned
            or seat not in state.cfg.seats
            or self._plays(state, seat)[0]
        ):
            return None
        colour = state.moved_colour(seat)
        if all(loc == kennel(colour) for loc in state.pawns[colour]):
            return {"reason": "kennel", "colour": colour}
        blockers = []
        for guard in sorted(state.guards):
            lifted = state.evolve(guards=state.guards - {guard})
            plays = card_plays(lifted, seat)[0]
            if any(
                move.action and move.action[0] not in ("swap", "null") for move in plays.values()
            ):
                blockers.append(guard)
        if blockers:
            return {"reason": "blocked", "colour": colour, "by": blockers}
        return {"reason": "none", "colour": colour}

    def _acting_seat(self, state: State, seat: int | None) -> int:
        if state.phase == "finished":
            raise IllegalMove("the game is over")
        if state.phase == "exchange":
            owing = sorted(self.seats_to_act(state))
            if seat is None:
                if len(owing) == 1:
                    return owing[0]
                raise IllegalMove("say which seat picks a card in the exchange")
            if seat not in state.cfg.seats:
                raise IllegalMove(f"seat {seat} is not in the game")
            return seat
        if seat is not None and seat != state.turn:
            raise IllegalMove(
                f"it is not {colour_name(seat)}'s turn but {colour_name(state.turn)}'s"
            )
        return state.turn

    def parse_move(self, state: State, text: str, seat: int | None = None) -> Move:
        """Parse notation (N-5) into a legal move, accepting non-canonical spellings (N-6.6)."""
        if not isinstance(text, str):
            raise IllegalMove("a move is a string")
        acting = self._acting_seat(state, seat)
        legal = self._legal(state, acting)
        found = legal.get(text)
        if found is not None:
            return found
        if state.phase == "play" and state.seven is None and not state.banned:
            # Another spelling of a listed outcome (C-9.4, N-6.1).
            alias = self._plays(state, acting)[2].get(text)
            if alias is not None:
                return alias
        if state.phase == "exchange":
            m = _PICK.fullmatch(text)
            if m is None:
                raise IllegalMove(f"{text!r} is not an exchange pick like G:Q")
            raise IllegalMove(f"{m['token']} is not in your hand")
        if state.seven is not None:
            self._refuse_segment(state, text)
        if text == "F":
            raise IllegalMove("you can only fold when no card can be played")
        m = _DISCARD.fullmatch(text)
        if m is not None:
            token = m["token"]
            if token not in state.hands[acting]:
                raise IllegalMove(f"{token} is not in your hand")
            if state.cfg.is_dog:
                raise IllegalMove("Dog has no discards: you fold when nothing can be played")
            raise IllegalMove(
                "you must play a card: a discard is allowed only when none can be played"
            )
        m = _PLAY.fullmatch(text)
        if m is None:
            raise IllegalMove(
                f"{text!r} is not a move in the notation (for example 'K:E', '5:r3-r8')"
            )
        card, action = m["card"], m["action"]
        token = "X" if card.startswith("X=") else card
        rank = card[2:] if token == "X" else card
        if token == "X" and not state.cfg.is_dog:
            raise IllegalMove("Tock has no jokers")
        if token not in state.hands[acting]:
            raise IllegalMove(f"{token} is not in your hand")
        if state.banned:
            raise IllegalMove("you are banned: you must discard a card")
        prefix = card_part(token, rank)
        colour = state.moved_colour(acting)
        if action.startswith("E"):
            if rank not in ("A", "K"):
                raise IllegalMove(f"{rank} cannot bring a pawn out")
            who = int(action[1:]) if len(action) > 1 else colour
            if who != colour:
                raise IllegalMove(f"you cannot bring out a pawn of {colour_name(who)}")
            canon = "E" if colour == acting else f"E{colour}"
            alt = legal.get(f"{card_part(token, 'A' if token == 'X' else rank)}:{canon}")
            if alt is not None:
                return alt
            raise IllegalMove(
                "no pawn can be brought out: the kennel is empty or the start field is guarded"
            )
        if "<>" in action:
            if rank != "J":
                raise IllegalMove(f"{rank} cannot swap pawns")
            a_text, b_text = action.split("<>")
            # As written only: the first location holds the moved colour's pawn (N-5.2); a
            # reversed swap describes no legal move (N-6.6).
            alt = legal.get(f"{prefix}:{a_text}<>{b_text}")
            if alt is not None:
                return alt
            a, b = parse_loc(a_text), parse_loc(b_text)
            occ = state.occupancy()
            if a is not None and b is not None and occ.get(a) == colour and occ.get(b) == colour:
                alt = legal.get(f"{prefix}:N")
                if alt is not None:
                    return alt
            raise IllegalMove(f"the swap {action} is not allowed")
        if action == "N":
            raise IllegalMove("J:N is only legal when a Jack changes nothing (T-7.8, D-11.4)")
        if rank == "7" and not state.cfg.seven_single:
            return self._parse_seven(state, acting, token, action)
        raise IllegalMove(f"{text} is not a legal move here")

    def _parse_seven(self, state: State, seat: int, token: str, action: str) -> Move:
        """A split 7 in any executable spelling: a complete play, or a partial first walk."""
        segs = []
        for walk in action.split(","):
            a_text, b_text = walk.split("-")
            a, b = parse_loc(a_text), parse_loc(b_text)
            assert a is not None
            assert b is not None
            segs.append((a, b))
        search = SevenSearch(
            state.cfg,
            state.occupancy(),
            state.guarded_fields(),
            state.moved_colour(seat),
            seat,
            carry=state.cfg.is_dog,
        )
        left = 7
        for a, b in segs:
            c = search.colour
            if search.occ.get(a) != c:
                raise IllegalMove(f"no pawn of {colour_name(c)} on {loc_text(a)} to move")
            path = _step_path(search, a, b, left)
            if path is None:
                raise IllegalMove(f"the 7 cannot go from {loc_text(a)} to {loc_text(b)} here")
            cur = a
            for nxt in path:
                search.do_step(cur, nxt, c)
                cur = nxt
            left -= len(path)
        if left == 0:
            move = self._plays(state, seat)[1].get((token, search.outcome()))
            if move is None:
                raise IllegalMove("that 7 is not legal here")
            return move
        if len(segs) > 1:
            raise IllegalMove("a 7 given in several walks must use all seven steps")
        for start in self.seven_starts(state, token, seat):
            if start.text == f"{card_part(token, '7')}:{action}":
                return start
        raise IllegalMove("after that walk the rest of the 7 could not be played")

    @staticmethod
    def _refuse_segment(state: State, text: str) -> NoReturn:
        """Explain why ``text`` is not an acceptable segment of the pending 7."""
        if _SEGMENT.fullmatch(text) is None:
            raise IllegalMove(f"a 7 is pending: send its next walk like 'r10-r13', not {text!r}")
        seven = state.seven
        assert seven is not None
        raise IllegalMove(
            f"{text} is not an acceptable next part of the 7 ({seven.left} steps left)"
        )

    def apply(self, state: State, move: Move | str, seat: int | None = None) -> State:
        """The state after ``move`` (a move or its text); :class:`IllegalMove` if not legal."""
        if isinstance(move, str):
            move = self.parse_move(state, move, seat)
        elif isinstance(move, Move):
            text = move[0]
            who: int | None = move[1] if move[1] >= 0 else seat
            known = None
            if who is not None and state.phase != "finished":
                # Membership in this state's own legal moves (cached on the state) is proof
                # enough: such a move needs no parsing again. Any other move is parsed.
                known = self._legal(state, who).get(text)
            move = known if known is not None else self.parse_move(state, text, who)
        else:
            raise IllegalMove("a move is a Move or its text")
        return flow.play(state, move)

    # -- leaving and automatic actions ---------------------------------------------------------

    def auto_action(self, state: State, seat: int) -> State:
        """The automatic action of C-13 for a left or timed-out ``seat``."""
        if seat not in self.seats_to_act(state):
            raise IllegalMove(f"{colour_name(seat)} owes no decision now")
        events: list[Event] = []
        if state.phase == "exchange":
            return flow.auto_pick(state, seat, events)
        if state.seven is not None:
            return flow.cut_seven(state, events)
        hand = state.hands[seat]
        if state.cfg.is_dog and "F" in self._legal(state, seat):
            return flow.play(state, Move("F", seat, "fold"), auto=True)
        card, seed = flow.random_card(hand, state.seed)
        return flow.play(
            state.evolve(seed=seed), Move(f"{card}:D", seat, "discard", card, card), auto=True
        )

    def leave(self, state: State, seat: int) -> State:
        """Mark ``seat`` as left (C-13.1); the engine takes its decisions from now on."""
        if seat not in state.cfg.seats:
            raise IllegalMove(f"seat {seat} is not in the game")
        if seat in state.left:
            return state
        events = [Event("left", seat, {})]
        state = state.evolve(left=state.left | {seat}, events=tuple(events))
        if state.phase == "exchange" and seat in self.seats_to_act(state):
            return flow.auto_pick(state, seat, events)
        if state.phase == "play" and state.turn == seat:
            if state.seven is not None:
                # C-13.6: the seat to act loses its guard at once, also in the middle of a 7
                # (whose remaining steps C-13.5 then drops).
                state = state.evolve(guards=state.guards - {seat})
                return flow.cut_seven(state, events)
            return flow.begin_turn(state)
        return state

    # -- views ------------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; see :mod:`engine.protocol`."""
        data = write(state)
        cfg = state.cfg
        hands = data.pop("hands")
        data.pop("exchange")
        data.pop("seed")
        data["draw"] = len(state.draw)
        data["hand_sizes"] = {k: len(v) for k, v in hands.items()}
        if "hand" in data:
            # ``hand`` is the viewer's cards in a view; the Tock hand number moves aside.
            data["hand_number"] = data.pop("hand")
            data["cycle_hands"] = len(flow.TOCK_SIZES[cfg.players])
        if seat is not None:
            data["hand"] = hands[str(seat)]
        data["exchanged"] = sorted(s for s, _ in state.exchange)
        data["my_pick"] = dict(state.exchange).get(seat) if seat is not None else None
        data["received"] = dict(state.received).get(seat) if seat is not None else None
        data["board"] = {"ring": cfg.ring, "per_seat": cfg.per_seat}
        data["viewer"] = seat
        data["to_act"] = sorted(self.seats_to_act(state))
        data["finished"] = state.phase == "finished"
        data["winners"] = list(state.winner or ())
        data["events"] = [
            e.to_json() for e in state.events if e.public or (seat is not None and e.seat == seat)
        ]
        return data

    def sample_state(self, view: Mapping[str, Any], seed: int) -> State:
        """A full state consistent with ``view``; hidden cards dealt at random from ``seed``."""
        rng = random.Random(seed)
        viewer = view.get("viewer")
        cfg_deck = make_config(
            self.name,
            int(view["players"]),
            tuple(sorted(view["options"].items())),
            tuple(tuple(t) for t in view["teams"]) if view.get("teams") else None,
        ).deck
        known: list[str] = list(view.get("discard", []))
        sv = view.get("seven")
        if sv:
            known.append(sv["card"])
        own = list(view.get("hand", [])) if viewer is not None else []
        known.extend(own)
        pool: list[str] = []
        counts = dict(cfg_deck)
        for t in known:
            counts[t] -= 1
        for t in TOKENS:
            pool.extend([t] * counts.get(t, 0))
        pool = list(sort_cards(pool))
        rng.shuffle(pool)
        hands: dict[str, list[str]] = {}
        for key, size in view["hand_sizes"].items():
            if viewer is not None and int(key) == viewer:
                hands[key] = own
            else:
                hands[key], pool = pool[:size], pool[size:]
        exchange = {}
        for s in view.get("exchanged", []):
            if viewer is not None and s == viewer and view.get("my_pick") is not None:
                exchange[str(s)] = view["my_pick"]
            elif hands[str(s)]:
                exchange[str(s)] = rng.choice(hands[str(s)])
        draw = pool[: view["draw"]]
        discard = pool[view["draw"] :] + list(view.get("discard", []))
        data: dict[str, Any] = {
            k: view[k]
            for k in (
                "game",
                "options",
                "players",
                "seats",
                "teams",
                "pawns",
                "phase",
                "turn",
                "dealer",
                "left",
                "seven",
                "winner",
            )
            if k in view
        }
        for k in ("banned", "round", "folded", "deal"):
            if k in view:
                data[k] = view[k]
        if "hand_number" in view:
            data["hand"] = view["hand_number"]
        data["hands"] = hands
        data["exchange"] = exchange if view["phase"] == "exchange" else {}
        data["draw"] = draw
        data["discard"] = discard
        data["seed"] = rng.getrandbits(63)
        return load(data, self.name)


def _step_path(search: SevenSearch, a: int, b: int, left: int) -> list[int] | None:
    """The single steps from ``a`` to ``b`` (≤ ``left``), each legal now, else ``None``."""
    c = search.occ[a]
    path = search.path(a, b, left)
    if path is None:
        return None
    cur = a
    undo = []
    ok = True
    for nxt in path:
        if nxt not in search.successors(cur, c):
            ok = False
            break
        undo.append(search.do_step(cur, nxt, c))
        cur = nxt
    for u in reversed(undo):
        search.undo(u)
    return path if ok else None
