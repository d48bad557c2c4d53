"""The live board's buttons fit Discord's guidance (34 characters) in every language, and a
board keeps its own controls first."""

from __future__ import annotations

import discord

from bot.discord_ui.live_links import LiveLinks
from bot.discord_ui.prompts import BUTTON_GUIDE
from bot.discord_ui.publisher import board_view
from bot.model.table import Phase, Seat, TableRecord
from i18n import LOCALES


def table() -> TableRecord:
    return TableRecord(
        id=12,
        guild_id=1,
        channel_id=2,
        game="tock",
        options={},
        seed=1,
        host_id=5,
        seats=(Seat(0, user_id=5, name="ann"), Seat(1, bot_level="easy")),
        players=2,
        phase=Phase.PLAYING,
    )


def test_live_buttons_fit_in_every_language() -> None:
    for locale in LOCALES:
        for item in LiveLinks("https://example.org", activity=True).items(table(), locale):
            assert isinstance(item, discord.ui.Button | discord.ui.DynamicItem)
            label = item.label if isinstance(item, discord.ui.Button) else item.item.label
            assert label
            assert len(label) <= BUTTON_GUIDE, (locale, label)


async def test_a_board_keeps_its_controls_and_gains_the_live_row() -> None:
    view = board_view(table(), 9, {}, "en", None, LiveLinks("https://example.org/", True))
    assert view is not None
    rows = view.to_components()
    labels = [c.get("label") for row in rows for c in row["components"]]
    assert labels == ["Show my hand", "Watch live", "Open the board"]
    link = rows[-1]["components"][0]
    assert link["url"] == "https://example.org/live/table/12"
    assert view.is_finished()  # nothing keeps the view in memory (#37)
