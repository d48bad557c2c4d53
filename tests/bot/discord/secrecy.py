"""A scan of everything public the bot posted: no hand and no exchange pick may show."""

from __future__ import annotations

import re

from tests.bot.discord.conftest import World
from tests.fakediscord.models import iter_components

CARD = r"(?:A|[2-9]|10|J|Q|K|X|Joker)"
#: Phrases that would reveal a hand or a secret pick if followed by a card.
LEAKS = re.compile(
    rf"\b(?:hand|holds?|held|pick(?:s|ed)?|pass(?:es|ed)?(?: the)?|gave|gives|received)\b"
    rf"[^.\n]{{0,20}}\*{{0,2}}(?<!Bot )(?<!Seat )(?<!seat )\b(?-i:{CARD})\b",
    re.IGNORECASE,
)
#: Boards, and what a finished table leaves: its results image (made from public facts only).
PUBLIC_FILE = re.compile(r"board-\d+-\d+\.png|results-\d+\.png|record-\d+\.json|summary-\d+\.gif")
PUBLIC_LABELS = {
    *("Join", "Leave", "Add bot", "Start", "Show my hand", "Place tile"),
    *("Rematch", "Replay"),  # the results post
}
#: A Carcassonne tile that fits one way only gets one public button that names the placement;
#: the tile on the board is public, so the label tells nothing secret.
PLACE_ONLY = re.compile(r"Place the tile: .+")


def scan_public(world: World) -> int:
    """Assert nothing secret is public; return the number of public messages scanned."""
    fake = world.fake
    channels = [world.channel.id, *(t.id for t in fake.threads(world.channel))]
    scanned = 0
    for channel in channels:
        for message in fake.messages(channel):
            if message.ephemeral:
                assert message.visible_to is not None
                assert len(message.visible_to) == 1, "a private message has exactly one reader"
                continue
            scanned += 1
            texts = [message.content]
            for embed in message.embeds:
                texts += [embed.get("title", ""), embed.get("description", "")]
                texts += [f.get("value", "") for f in embed.get("fields", [])]
            for text in texts:
                leak = LEAKS.search(text or "")
                assert leak is None, f"public text reveals a card: {leak.group(0)!r} in {text!r}"
            for stored in message.files:
                assert PUBLIC_FILE.fullmatch(stored.filename), stored.filename
            for component in iter_components(message.components):
                if component.get("type") == 2:
                    label = component.get("label")
                    assert label in PUBLIC_LABELS or PLACE_ONLY.fullmatch(label), component
    return scanned
