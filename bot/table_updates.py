"""What a table service operation tells whom: public updates, private updates, secrecy.

Public updates carry only the spectator view and never a secret pick (C-10.5); private
updates carry a seat's own view and legal moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.effects import Effects, PrivateUpdate, PublicUpdate
from bot.table_core import LiveTable, TableCore
from bot.table_history import is_secret_move
from bot.table_model import LogKind, Phase, TableRecord


class UpdatesMixin(TableCore):
    """Building :class:`~bot.effects.Effects` and keeping secrets out of public ones."""

    def _lobby_update(self, record: TableRecord, kind: str, text: str) -> PublicUpdate:
        return PublicUpdate(record.id, kind, text, record.version)

    @staticmethod
    def _public_events(state: Any) -> tuple[Mapping[str, Any], ...]:
        events = getattr(state, "events", ()) or ()
        return tuple(e.to_json() for e in events if getattr(e, "public", True))

    def _seat_name(self, record: TableRecord, seat: int) -> str:
        for s in record.seats:
            if s.index == seat:
                return s.name or f"Seat {seat}"
        return f"Seat {seat}"

    def _is_secret(self, live: LiveTable, to_act: frozenset[int]) -> bool:
        """Whether a decision taken now must stay secret: during an exchange phase, or
        whenever several seats decide at once."""
        if len(to_act) > 1:
            return True
        return live.public_view(self._game(live)).get("phase") == "exchange"

    def _public_action(
        self,
        live: LiveTable,
        effects: Effects,
        kind: LogKind,
        seat: int,
        text: str,
        *,
        secret: bool,
        changed: bool = False,
    ) -> None:
        record = live.record
        module = self._game(live)
        view = live.public_view(module)
        events = self._public_events(live.state)
        name = self._seat_name(record, seat)
        # The exchange pick (C-10.5) is secret (bot.table_history decides what is); beyond it,
        # any decision taken while several seats decide at once is treated as secret.
        secret = secret or is_secret_move(record.game, text)
        if kind == LogKind.AUTO:
            words = f"{name} did not act in time; the automatic action was taken."
            if any(s.index == seat and s.left for s in record.seats):
                words = f"Automatic action for {name}."
        elif secret and changed:
            words = f"{name} changed the card to pass."
        elif secret:
            words = f"{name} chose a card to pass."
        else:
            words = f"{name} played {text}."
        details = " ".join(str(e["text"]) for e in events if e.get("text"))
        if details and kind == LogKind.MOVE and not secret:
            words = f"{name}: {details}"  # the engine's own words already name the move
        elif details:
            words = f"{words} {details}"
        finished = record.phase == Phase.FINISHED
        if finished:
            winners = ", ".join(self._seat_name(record, w) for w in record.winners)
            words += f" Game over: {winners} won." if winners else " Game over."
        effects.public.append(
            PublicUpdate(
                record.id,
                "finished" if finished else "action",
                words,
                record.version,
                view,
                tuple(view["to_act"]),
                actor=seat,
                move=None if secret or kind != LogKind.MOVE else text,
                events=events,
                finished=finished,
                winners=record.winners,
            )
        )

    def _private_updates(
        self, live: LiveTable, effects: Effects, *, actor: int | None, previous: frozenset[int]
    ) -> None:
        """Tell each person what changed for them: their hand, a received card, private
        events, and that they owe a decision (with a ping when it is newly theirs)."""
        record = live.record
        module = self._game(live)
        to_act = frozenset(module.seats_to_act(live.state)) if record.phase == Phase.PLAYING else ()
        events = getattr(live.state, "events", ()) or ()
        for seat in record.seats:
            if not seat.is_human or seat.user_id is None:
                continue
            view = module.view(live.state, seat.index)
            hand = tuple(view.get("hand") or ())
            received = view.get("received")
            old = live.last_private.get(seat.index)
            live.last_private[seat.index] = (hand, received)
            base = (record.id, seat.user_id, seat.index)
            if old is not None and received is not None and old[1] != received:
                effects.private.append(
                    PrivateUpdate(
                        *base,
                        "received",
                        f"Your partner passed you {received}.",
                        record.version,
                        view,
                    )
                )
            for event in events:
                if not getattr(event, "public", True) and event.seat == seat.index and event.text:
                    effects.private.append(
                        PrivateUpdate(*base, "event", event.text, record.version, view)
                    )
            if seat.index in to_act and (seat.index not in previous or seat.index == actor):
                legal = tuple(self._legal_texts(live, seat.index))
                effects.private.append(
                    PrivateUpdate(
                        *base, "your_turn", "It is your turn.", record.version, view, legal
                    )
                )
                if seat.index not in previous and seat.user_id not in effects.pings:
                    effects.pings.append(seat.user_id)
            elif old is None or old[0] != hand:
                effects.private.append(
                    PrivateUpdate(*base, "hand", "Your hand changed.", record.version, view)
                )

    def _legal_texts(self, live: LiveTable, seat: int) -> list[str]:
        return [str(m) for m in self._game(live).legal_moves(live.state, seat)]

    def _labels(self, live: LiveTable, legal: Sequence[str]) -> tuple[str, ...]:
        describe = getattr(self._game(live), "describe_move", None)
        if describe is None:
            return tuple(legal)
        labels = []
        for text in legal:
            try:
                labels.append(str(describe(live.state, text)))
            except Exception:  # words are a nicety; the move text always works
                labels.append(text)
        return tuple(labels)

    def _seven_starts(self, live: LiveTable, seat: int) -> dict[str, tuple[str, ...]]:
        """The first segments of a split 7 per 7-like card in the seat's hand, if any."""
        module = self._game(live)
        seven_starts = getattr(module, "seven_starts", None)
        if seven_starts is None:
            return {}
        hand = module.view(live.state, seat).get("hand") or []
        result: dict[str, tuple[str, ...]] = {}
        for card in sorted({c for c in hand if c in ("7", "X")}):
            try:
                starts = seven_starts(live.state, card)
            except Exception:  # the engine refuses (e.g. single-7 tables): nothing to offer
                continue
            if starts:
                result[card] = tuple(str(s) for s in starts)
        return result
