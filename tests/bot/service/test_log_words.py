"""``/table log`` in words: played Tock, Dog and Carcassonne tables, read by every reader.

Every line, in every language, for a spectator and each seat, reads as a sentence (the
sentence lint) and carries no notation; a move's line says what the thread said when it was
made; the answer fits one Discord message and says when older moves are left out.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import pytest
import pytest_asyncio

from bot.discord_ui.frontdesk import LOG_LINES, MESSAGE_LIMIT, log_text
from bot.discord_ui.texts import seat_name
from bot.model.history import HistoryKind
from bot.service import TableService
from i18n import LOCALES, t
from i18n.catalog import game_terms
from i18n.history import history_line
from tests.bot.discord.driving import move_score
from tests.bot.service.test_tables_games import _seat, play_to_the_end
from tests.sentence_lint import problems

SPECTATOR = 99  # a member of the channel with no seat

#: (game, players, options, seed, how the people choose among their moves)
TABLES: dict[str, tuple[str, int, dict[str, Any], int, Callable[[str], float] | None]] = {
    "tock-2v2": ("tock", 4, {"game_type": "2v2"}, 11, None),
    # A random Dog game is long; quick-finishing moves tell the same kinds of things.
    "dog": ("dog", 4, {}, 13, functools.partial(move_score, ring=64)),
    "carcassonne": ("carcassonne", 3, {}, 17, None),
}


#: The tables are played once for the module's tests, on the module's event loop.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=sorted(TABLES))
async def played(request: pytest.FixtureRequest) -> Any:
    """A finished table of people only (so each seat is a reader), and the thread's texts."""
    from bot.bots.choosers import random_chooser
    from bot.storage import open_storage

    game, players, options, seed, prefer = TABLES[request.param]
    storage = await open_storage("sqlite:///:memory:")
    service = TableService(storage, choose_bot_move=random_chooser)
    started = await _seat(service, game, players, options, players, seed)
    results, _ = await play_to_the_end(
        service, started.table.id, players, random.Random(seed), prefer
    )
    with game_terms(game):
        told = {
            # The thread puts each scored feature on a line of its own; the log says it all
            # on the entry's one line.
            (locale, " ".join(update.message.text(locale).splitlines()))
            for effects in [started, *results]
            for update in effects.public
            for locale in LOCALES
        }
    yield service, started.table.id, told
    await storage.close()


def _number(number: int, locale: str) -> str:
    """How a log line is numbered: ``3. `` (Hungarian ``[3] ``: "3. 2. bot" would read as
    two ordinals in a row)."""
    return f"[{number}] " if locale == "hu" else f"{number}. "


async def test_every_log_line_reads_as_a_sentence_for_every_reader(played: Any) -> None:
    service, table_id, told = played
    readers = [SPECTATOR, *range(1, len((await service.get(table_id)).seats) + 1)]
    checked: set[tuple[str, str]] = set()
    for reader in readers:
        table, history = await service.history(table_id, reader)
        assert history, "a played game has a log"
        names = {seat_name(table, s.index, locale) for s in table.seats for locale in LOCALES}
        for locale in LOCALES:
            with game_terms(table.game):
                for entry in history:
                    who = seat_name(table, entry.seat, locale)
                    line = history_line(entry, who, locale, game=table.game)
                    number = _number(entry.number, locale)
                    assert line.startswith(number)
                    if entry.kind == HistoryKind.MOVE:
                        # The sentences the thread got when the move was made.
                        assert (locale, line.removeprefix(number)) in told, line
                    checked.add((locale, line))
    wrong = [
        f"[{locale}] {line!r}: {'; '.join(found)}"
        for locale, line in sorted(checked)
        if (found := problems(line, locale, "public", names))
    ]
    assert not wrong, "\n".join(wrong[:20])


async def test_the_answer_keeps_the_newest_moves_within_one_message(played: Any) -> None:
    service, table_id, _told = played
    for locale in LOCALES:
        table, newest = await service.history(table_id, 1, last=LOG_LINES)
        _table, everything = await service.history(table_id, 1)
        # Only the newest entries are replayed for their words, and they are the same.
        assert newest == everything[-LOG_LINES:]
        with game_terms(table.game):
            text = log_text(table, newest, locale)
            notation = log_text(table, newest, locale, notation=True)
        for answer in (text, notation):
            assert len(answer) <= MESSAGE_LIMIT
            lines = answer.splitlines()
            assert lines[0] == t("desk.log_title", locale, table=table_id)
            newest_number = _number(everything[-1].number, locale)
            assert lines[-1].startswith(newest_number)  # the newest is kept
            shown = len(lines) - 2
            left_out = len(everything) - shown
            assert lines[1] == t("desk.log_older", locale, count=left_out)
            assert not problems(lines[1], locale, "public")
