"""Changing an exchange pick through the table service (C-10.5, D-4.4, N-7.2).

In Tock and Dog a seat may replace its pick as long as some seat has not picked yet (for Dog
from the rules, for Tock a house decision of the digest); the partner receives the last pick,
and nobody else ever learns a pick.
"""

from __future__ import annotations

import pytest

from bot.service import NotYourTurn, StaleVersion, TableService
from i18n.events import card_word
from tests.bot.service.test_tables_games import _seat, assert_public


async def _change_pick_until_everyone_picked(
    service: TableService, game: str, options: dict[str, str]
) -> None:
    started = await _seat(service, game, 4, options, 4, 11)
    table_id, first_version = started.table.id, started.table.version
    info = await service.private_info(table_id, 1)
    assert info.to_act
    assert info.pick is None
    cards = [m.removeprefix("G:") for m in info.legal_moves]
    assert len(cards) >= 2, "the seed must deal player 1 two different cards"
    first, second = cards[0], cards[-1]

    picked = await service.exchange_pick(table_id, 1, first, first_version)
    after = await service.private_info(table_id, 1)
    # Still changeable: no decision owed, but the picks are listed and the current one named.
    assert not after.to_act
    assert after.pick == first
    assert set(after.legal_moves) == {f"G:{c}" for c in cards}
    # A button drawn before the seat's own pick is over; one drawn after it is not.
    with pytest.raises(StaleVersion):
        await service.exchange_pick(table_id, 1, second, first_version)
    changed = await service.exchange_pick(table_id, 1, second, after.table.version)
    assert (await service.private_info(table_id, 1)).pick == second
    for effects in (picked, changed):
        for update in effects.public:
            assert_public(update)
            assert first not in update.message.text("en").split()
            assert second not in update.message.text("en").split()
    assert any("changed" in u.message.text("en") for u in changed.public)
    assert not changed.pings  # nobody newly owes anything

    # The other seats' buttons, drawn at the start, stay valid; the last pick closes it.
    received: dict[int, str] = {}
    for user in (2, 3, 4):
        effects = await service.act(
            table_id,
            user,
            (await service.private_info(table_id, user)).legal_moves[0],
            first_version,
        )
        received.update(
            {p.user_id: p.message.text("en") for p in effects.private if p.kind == "received"}
        )
    table = effects.table
    seat_of = {s.user_id: s.index for s in table.seats if s.user_id is not None}
    view = await service.public_view(table_id)
    assert view is not None
    assert view["phase"] != "exchange"
    team = next(t for t in view["teams"] if seat_of[1] in t)
    partner = next(u for u, s in seat_of.items() if s in team and u != 1)
    # The changed pick, not the first one.
    assert received[partner].endswith(card_word(second, article=True).text("en") + ".")
    # Once everybody picked the exchange is over and the pick can no longer change.
    last = await service.private_info(table_id, 1)
    assert last.pick is None
    assert not any(m.startswith("G:") for m in last.legal_moves)
    if not last.to_act:
        with pytest.raises(NotYourTurn):
            await service.exchange_pick(table_id, 1, second, last.table.version)


async def test_c10_5_d4_4_dog_a_pick_may_change_until_every_seat_has_picked(
    service: TableService,
) -> None:
    await _change_pick_until_everyone_picked(service, "dog", {})


async def test_c10_5_tock_house_decision_a_pick_may_change_until_every_seat_has_picked(
    service: TableService,
) -> None:
    await _change_pick_until_everyone_picked(service, "tock", {"game_type": "2v2"})


async def test_a_game_whose_engine_lists_no_repick_refuses_a_second_pick(
    service: TableService,
) -> None:
    """The service follows the engine: the toy game offers no picks once a seat picked."""
    created = await service.create(7, 8, "toy", 1, "Ann", players=2, seed=5)
    await service.join(created.table.id, 2, "Bob")
    started = await service.start_game(created.table.id, 1)
    table_id = started.table.id
    info = await service.private_info(table_id, 1)
    await service.act(table_id, 1, info.legal_moves[0], info.table.version)
    after = await service.private_info(table_id, 1)
    assert after.legal_moves == ()
    assert not after.to_act
    with pytest.raises(NotYourTurn):
        await service.act(table_id, 1, info.legal_moves[-1], after.table.version)
