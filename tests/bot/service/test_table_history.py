"""What each reader may see of a table's history (C-10.5 picks are secret, D-4.4).

One test per reader class: the author of a pick, the partner before and after the exchange
is over, an opponent and a spectator, each during the game and after it.
"""

from __future__ import annotations

import functools
import logging
import random
from typing import Any

import pytest

from bot.model.history import HistoryEntry, HistoryKind, partners_of, reader_history
from bot.model.table import LogEntry, LogKind, Phase
from bot.service import TableService
from bot.storage.base import Storage
from i18n.history import history_line
from tests.bot.discord.driving import move_score
from tests.bot.service.test_tables_games import _seat, play_to_the_end

SPECTATOR = 99  # a member of the channel with no seat


class Exchange:
    """A Dog table of four people whose first exchange is driven by the test.

    ``author`` (user 1) picks first, changes the pick, and the other three then pick; the
    ``partner`` receives the changed pick, the ``opponent`` and the spectator never learn it.
    """

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def open(self) -> None:
        started = await _seat(self.service, "dog", 4, {}, 4, 11)
        self.table_id = started.table.id
        self.version = started.table.version
        table = started.table
        self.seat_of = {s.user_id: s.index for s in table.seats if s.user_id is not None}
        view = await self.service.public_view(self.table_id)
        assert view is not None
        assert view["phase"] == "exchange"
        partners = partners_of(view["teams"])
        self.author = 1
        self.partner = next(u for u, s in self.seat_of.items() if s == partners[self.seat_of[1]])
        self.opponent = next(u for u in self.seat_of if u not in (self.author, self.partner))
        cards = [m.removeprefix("G:") for m in await self._legal(self.author)]
        self.first, self.card = cards[0], cards[-1]
        assert self.first != self.card, "the seed must deal the author two different cards"

    async def _legal(self, user: int) -> tuple[str, ...]:
        return (await self.service.private_info(self.table_id, user)).legal_moves

    async def author_picks_and_changes(self) -> None:
        await self.service.exchange_pick(self.table_id, self.author, self.first, self.version)
        after = await self.service.private_info(self.table_id, self.author)
        await self.service.exchange_pick(self.table_id, self.author, self.card, after.table.version)

    async def others_pick(self) -> None:
        for user in sorted(self.seat_of):
            if user != self.author:
                pick = (await self._legal(user))[0]
                await self.service.act(self.table_id, user, pick, self.version)
        view = await self.service.public_view(self.table_id)
        assert view is not None
        assert view["phase"] != "exchange"

    async def finish(self) -> None:
        # Quick-finishing moves (a random Dog game is long); the history is the same kind.
        prefer = functools.partial(move_score, ring=64)
        await play_to_the_end(self.service, self.table_id, 4, random.Random(5), prefer)
        assert (await self.service.get(self.table_id)).phase == Phase.FINISHED

    async def picks_seen_by(self, user: int | None) -> list[HistoryEntry]:
        """The author's picks in the first exchange as ``user`` sees them."""
        _table, history = await self.service.history(self.table_id, user)
        author_seat = self.seat_of[self.author]
        plays = [i for i, e in enumerate(history) if e.kind == HistoryKind.MOVE]
        first_exchange = history[: plays[0]] if plays else history
        return [e for e in first_exchange if e.seat == author_seat]

    async def lines_seen_by(self, user: int | None) -> str:
        _table, history = await self.service.history(self.table_id, user)
        return "\n".join(history_line(e, str(e.seat), "en") for e in history)


@pytest.fixture
async def exchange(service: TableService) -> Exchange:
    table = Exchange(service)
    await table.open()
    return table


async def test_c10_5_the_author_sees_their_pick_during_and_after_the_game(
    exchange: Exchange,
) -> None:
    await exchange.author_picks_and_changes()
    during = await exchange.picks_seen_by(exchange.author)
    assert [(e.kind, e.card, e.changed) for e in during] == [
        (HistoryKind.PICK, exchange.first, False),
        (HistoryKind.PICK, exchange.card, True),
    ]
    assert not any(e.received for e in during)
    await exchange.others_pick()
    await exchange.finish()
    after = await exchange.picks_seen_by(exchange.author)
    assert [e.card for e in after] == [exchange.first, exchange.card]


async def test_c10_5_d4_4_the_partner_sees_the_card_received_only_once_the_exchange_is_over(
    exchange: Exchange,
) -> None:
    await exchange.author_picks_and_changes()
    before = await exchange.picks_seen_by(exchange.partner)
    assert [(e.card, e.changed, e.received) for e in before] == [
        (None, False, False),
        (None, True, False),
    ]
    assert exchange.card not in await exchange.lines_seen_by(exchange.partner)
    await exchange.others_pick()
    # The card that arrived, and only it: the replaced first pick never reached the partner.
    received = await exchange.picks_seen_by(exchange.partner)
    assert [(e.card, e.received) for e in received] == [(None, False), (exchange.card, True)]
    await exchange.finish()
    assert await exchange.picks_seen_by(exchange.partner) == received


@pytest.mark.parametrize("reader", ["opponent", "spectator"])
async def test_c10_5_opponents_and_spectators_never_see_a_pick(
    exchange: Exchange, reader: str
) -> None:
    user = exchange.opponent if reader == "opponent" else SPECTATOR

    async def assert_hidden() -> None:
        _table, history = await exchange.service.history(exchange.table_id, user)
        # The author's side: neither the author's nor the partner's picks are theirs to know.
        side = {exchange.seat_of[exchange.author], exchange.seat_of[exchange.partner]}
        picks = [e for e in history if e.kind == HistoryKind.PICK and e.seat in side]
        assert picks, "the history lists the picks"
        assert all(e.card is None and not e.received for e in picks)
        lines = await exchange.lines_seen_by(user)
        assert "G:" not in lines
        assert f"{exchange.seat_of[exchange.author]} chose a card to pass" in lines
        assert f"{exchange.seat_of[exchange.author]} changed the card to pass" in lines

    await exchange.author_picks_and_changes()
    await assert_hidden()
    await exchange.others_pick()
    await assert_hidden()
    await exchange.finish()
    await assert_hidden()


async def test_c10_5_a_pick_reaches_the_partner_by_its_exchange_not_the_newest_one() -> None:
    """Two exchanges in one log: the first is over (a move followed), the second open."""
    log = [
        LogEntry(0, LogKind.MOVE, 0, "G:K"),
        LogEntry(1, LogKind.MOVE, 1, "G:5"),
        LogEntry(2, LogKind.MOVE, 0, "K:E"),
        LogEntry(3, LogKind.AUTO, 1),
        LogEntry(4, LogKind.MOVE, 0, "G:7"),
    ]
    partners = {0: 1, 1: 0}
    seen = reader_history("dog", log, 1, partners=partners, exchange_open=True)
    assert [(e.kind, e.card, e.received) for e in seen] == [
        (HistoryKind.PICK, "K", True),
        (HistoryKind.PICK, "5", False),
        (HistoryKind.MOVE, None, False),
        (HistoryKind.AUTO, None, False),
        (HistoryKind.PICK, None, False),
    ]
    assert seen[2].move == "K:E"
    closed = reader_history("dog", log, 1, partners=partners, exchange_open=False)
    assert closed[4].card == "7"
    assert closed[4].received
    assert reader_history("dog", log, None, partners=partners, exchange_open=False)[4].card is None


async def test_c10_5_a_bots_refused_pick_is_not_written_to_the_log(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot's log lines are read by whoever runs it: a refused pick keeps its card."""

    def picks_in_play(game: str, view: Any, level: str, legal: Any, seed: int) -> str:
        return "G:" + str(view["hand"][0]) if view.get("phase") == "play" else legal[0]

    service = TableService(storage, choose_bot_move=picks_in_play)
    started = await _seat(service, "tock", 2, {}, 1, 3)
    caplog.set_level(logging.INFO)
    await play_to_the_end(service, started.table.id, 1, random.Random(2))
    refused = [r.getMessage() for r in caplog.records if "chose illegal" in r.getMessage()]
    assert refused, "the bot's pick in the play phase is refused and replaced"
    assert all("G:" not in text for text in refused)
