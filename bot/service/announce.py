"""The announcer: what a table service operation tells whom, and what it keeps secret.

Public updates carry only the spectator view and never a secret pick (C-10.5); private
updates carry a seat's own view and legal moves. Owns nothing but the memory of what each seat
last saw privately (``LiveTable.last_private``), of which it is the only writer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.model.effects import Effects, PrivateUpdate, PublicUpdate
from bot.model.history import is_secret_move, public_events, with_stuck
from bot.model.table import LogKind, Phase, TableRecord
from bot.service.games import Games
from bot.service.store import LiveTable
from i18n.events import action_message, card_word, event_lines, event_messages
from i18n.message import Message, Said, joined, msg
from i18n.moves import move_label


class Announcer:
    """Words every update of a table: public ones without secrets, private ones per seat."""

    def __init__(self, games: Games) -> None:
        self._games = games

    def lobby_update(self, record: TableRecord, kind: str, text: Said) -> PublicUpdate:
        """A public update of the lobby or the table as a whole (no view, no move)."""
        return PublicUpdate(record.id, kind, text, record.version)

    @staticmethod
    def event_names(record: TableRecord) -> dict[int, Any] | None:
        """How event sentences name seats: Carcassonne by the people at the table (its board
        shows names), race games by colour (their board shows colours)."""
        if record.game != "carcassonne":
            return None
        return {s.index: s.label for s in record.seats}

    def _event_messages(
        self,
        record: TableRecord,
        view: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
    ) -> list[Message]:
        """The sentences of ``events`` (those said at all), as messages."""
        names = self.event_names(record)
        board = (view or {}).get("board")
        return event_messages(events, game=record.game, names=names, board=board)

    def is_secret(self, live: LiveTable, to_act: frozenset[int]) -> bool:
        """Whether a decision taken now must stay secret: during an exchange phase, or
        whenever several seats decide at once."""
        if len(to_act) > 1:
            return True
        return live.public_view(self._games.of(live.record)).get("phase") == "exchange"

    def action(
        self,
        live: LiveTable,
        effects: Effects,
        kind: LogKind,
        seat: int,
        text: str,
        *,
        secret: bool,
        changed: bool = False,
        stuck: Mapping[str, Any] | None = None,
    ) -> None:
        """The public update of one action; ``stuck``: why the actor could not play, when the
        action was a forced discard or fold (said with it)."""
        record = live.record
        module = self._games.of(live.record)
        view = live.public_view(module)
        events = public_events(live.state)
        name = record.seat_label(seat)
        # The exchange pick (C-10.5) is secret (bot.model.history decides what is); beyond it,
        # any decision taken while several seats decide at once is treated as secret.
        secret = secret or is_secret_move(record.game, text)
        said = with_stuck(events, seat, stuck)
        details = self._event_messages(record, view, said)
        head: Message | None = None
        if kind == LogKind.AUTO:
            left = any(s.index == seat and s.left for s in record.seats)
            head = msg("table.auto_left" if left else "table.auto", name=name)
        elif secret:
            head = msg("table.changed_pick" if changed else "table.picked", name=name)
        if record.game == "carcassonne" and head is None and details:
            # Its sentences name the player; each scored feature gets a line of its own.
            names, board = self.event_names(record), view.get("board")
            lines = event_lines(events, game=record.game, names=names, board=board)
            message: Said = joined(lines, "\n")
        else:
            message = action_message(record.game, name, details, head)
        finished = record.phase == Phase.FINISHED
        effects.public.append(
            PublicUpdate(
                record.id,
                "finished" if finished else "action",
                message,
                record.version,
                view,
                tuple(view["to_act"]),
                actor=seat,
                move=None if secret or kind != LogKind.MOVE else text,
                events=events,
                finished=finished,
                winners=record.winners,
                by_person=kind == LogKind.MOVE
                and any(s.index == seat and s.is_human for s in record.seats),
            )
        )

    def private_updates(
        self, live: LiveTable, effects: Effects, *, actor: int | None, previous: frozenset[int]
    ) -> None:
        """Tell each person what changed for them: their hand, a received card, private
        events, and that they owe a decision (with a ping when it is newly theirs)."""
        record = live.record
        module = self._games.of(live.record)
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
            # The seat's own events (its pick) come first: they happened before the cards moved.
            private = [
                e.to_json()
                for e in events
                if not getattr(e, "public", True)
                and e.seat == seat.index
                and e.kind != "exchange_received"  # said below, once the rules let it be seen
            ]
            for message in self._event_messages(record, view, private):
                effects.private.append(PrivateUpdate(*base, "event", message, record.version, view))
            if old is not None and received is not None and old[1] != received:
                card = card_word(str(received), article=True)
                effects.private.append(
                    PrivateUpdate(
                        *base,
                        "received",
                        msg("table.partner_passed", card=card),
                        record.version,
                        view,
                    )
                )
            if seat.index in to_act and (seat.index not in previous or seat.index == actor):
                legal = tuple(self.legal_texts(live, seat.index))
                effects.private.append(
                    PrivateUpdate(
                        *base, "your_turn", msg("table.your_turn"), record.version, view, legal
                    )
                )
                if seat.index not in previous and seat.user_id not in effects.pings:
                    effects.pings.append(seat.user_id)
            elif old is None or old[0] != hand:
                effects.private.append(
                    PrivateUpdate(*base, "hand", msg("table.hand_changed"), record.version, view)
                )

    def legal_texts(self, live: LiveTable, seat: int) -> list[str]:
        """The seat's legal moves, in notation."""
        return [str(m) for m in self._games.of(live.record).legal_moves(live.state, seat)]

    def labels(self, live: LiveTable, seat: int, legal: Sequence[str]) -> tuple[Said, ...]:
        """Each legal move in words with what it would do (captures, a ban), from the events
        the engine reports for it: the facts, said by :mod:`i18n.moves`."""
        module = self._games.of(live.record)
        record = live.record
        view = module.view(live.state, seat)
        names = {s.index: s.label for s in record.seats}
        by_text = {str(m): m for m in module.legal_moves(live.state, seat)}
        labels: list[Said] = []
        for text in legal:
            events: list[Mapping[str, Any]] = []
            if record.game != "carcassonne" or "@" not in text:  # a placement does nothing more
                try:
                    after = module.apply(live.state, by_text.get(text, text), seat)
                    events = [e.to_json() for e in after.events]
                except Exception:  # the words can do without the effects; the move still works
                    events = []
            labels.append(move_label(record.game, text, view, names, events, legal))
        return tuple(labels)

    def seven_starts(self, live: LiveTable, seat: int) -> dict[str, tuple[str, ...]]:
        """The first segments of a split 7 per 7-like card in the seat's hand, if any."""
        module = self._games.of(live.record)
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
