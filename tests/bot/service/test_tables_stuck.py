"""A forced discard (T-5.3) or fold (D-6.2) through the table service: the player's private
info says why, and so does the sentence the table reads."""

from __future__ import annotations

import random

import pytest

from bot.service import Phase, TableService
from engine import get_game
from tests.bot.service.test_tables_games import _seat

#: Words of each reason in the public sentence (English).
SAID = {
    "kennel": "cannot bring a pawn out of the kennel",
    "blocked": "the way is blocked by",
    "none": "cannot move any pawn",
}


@pytest.mark.parametrize(("game", "players", "people"), [("tock", 2, 1), ("dog", 4, 1)])
async def test_a_forced_discard_or_fold_says_why_in_private_and_in_public(
    service: TableService, game: str, players: int, people: int
) -> None:
    started = await _seat(service, game, players, {}, people, 5)
    table_id = started.table.id
    rng = random.Random(5)
    module = get_game(game)
    for _ in range(2_000):
        table = await service.get(table_id)
        assert table.phase == Phase.PLAYING, "the person was never stuck"
        info = await service.private_info(table_id, 1)
        if not info.to_act:
            raise AssertionError("the person owes nothing in a running game")
        forced = info.legal_moves == ("F",) or all(m.endswith(":D") for m in info.legal_moves)
        if not forced or (info.view or {}).get("banned"):
            assert info.stuck is None
            await service.act(table_id, 1, rng.choice(info.legal_moves), info.table.version)
            continue
        live = service.store.cached(table_id)
        assert info.stuck == module.stuck_reason(live.state, info.seat)
        reason = str(info.stuck["reason"])
        effects = await service.act(table_id, 1, info.legal_moves[0], info.table.version)
        said = effects.public[0].message.text("en")
        assert SAID[reason] in said, said
        return
    raise AssertionError("the person was never stuck")
