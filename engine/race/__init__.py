"""The shared core of the race games Tock and Dog (race-games.md, race-notation.md).

Modules: :mod:`~engine.race.cards` (tokens, decks), :mod:`~engine.race.geometry` (board,
locations as small ints, precomputed walks), :mod:`~engine.race.state` (the immutable
state), :mod:`~engine.race.movegen` (legal card plays), :mod:`~engine.race.seven` (the split
7 search and its canonical form), :mod:`~engine.race.flow` (turns, deals, exchange, 7
segments, automatic actions), :mod:`~engine.race.position` (N-3 positions) and
:mod:`~engine.race.api` (the protocol functions; ``engine.tock`` and ``engine.dog`` bind
them).

Driving a split 7 button by button (C-8.7, N-5.3), for UIs
-----------------------------------------------------------
1. ``seven_starts(state, card)`` with ``card`` ``"7"`` (or ``"X"``, a Dog joker played as
   a 7) lists the acceptable first segments as moves ``7:a-b`` / ``X=7:a-b``. Each
   ``move.action == ("steps", ((from, steps, to),), True)``; a move with ``steps == 7``
   (``move.kind == "play"``) completes the play, shorter ones have ``move.kind ==
   "partial"``.
2. ``apply(state, move)`` of a partial move removes the card from the hand and leaves a
   pending 7: ``state.seven`` is a :class:`~engine.race.state.Seven` with ``left`` steps.
3. While ``state.seven`` is set, ``legal_moves(state)`` lists the acceptable next segments
   as bare walks ``a-b`` (``move.kind == "segment"``); apply them one by one. After the
   seventh step the play is complete and logged in canonical form (N-6.4).
4. ``auto_action(state, seat)`` during a pending 7 cuts it short (C-13.5).

Other extras and details beyond :mod:`engine.protocol`
------------------------------------------------------
* Events are facts (kind, seat, data), never sentences: :mod:`i18n.events` and
  :mod:`i18n.moves` say events and moves in each reader's language.
* ``apply(state, move, seat=None)`` and ``parse_move(state, text, seat=None)``: ``seat``
  says who acts. It is needed for an exchange pick ``G:c`` given as text while several
  seats still owe a pick (moves from ``legal_moves(state, seat)`` carry their seat); in the
  play phase a ``seat`` other than the seat in turn is refused.
* ``legal_moves(state, seat)`` for a seat that owes nothing now is empty.
* Moves are :class:`~engine.race.move.Move` values (immutable, equal and hashed by their
  canonical text ``str(move)``); ``move.kind``, ``move.card``, ``move.rank``,
  ``move.seat`` and ``move.action`` describe them for UIs.
* ``view`` follows the protocol; the Tock position field ``hand`` (the number of the hand
  in its deck cycle) is renamed ``hand_number`` there, because ``hand`` is the viewer's
  cards.
* Other spellings of a listed outcome are accepted (N-6.6), including plays that give
  the same board as a listed one (an own pawn captured either way, C-9.4).
"""
