"""Who Discord notifies for a message, as Discord decides it.

Discord sends a push or desktop notification only when a message is *created*: an edit that
adds a mention (of a channel message, an interaction response or a deferred "thinking"
message) pings nobody (discord-api-docs #1419, #5497). A created message notifies the users
it mentions in its ``content`` or in a layout message's Text Displays, as far as its
``allowed_mentions`` lets them (absent: every mention pings; ``parse: ["users"]``: every user;
``users: [...]``: only those), and nobody when it carries ``SUPPRESS_NOTIFICATIONS``
(``1 << 12``) or is ephemeral. Embed text never pings. A user who cannot see the channel is
not notified.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tests.fakediscord.models import iter_components

#: ``SUPPRESS_NOTIFICATIONS`` (discord.py ``silent=True``): a badge, no push.
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
_USER_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True, slots=True)
class Notification:
    """One notification Discord sends: ``user_id`` was pinged by ``message_id``."""

    user_id: int
    message_id: int
    channel_id: int
    at: float


def mentioned_users(content: str, components: Iterable[Mapping[str, Any]]) -> list[int]:
    """The user ids mentioned in ``content`` and in the Text Displays of ``components``."""

    texts = [content or ""]
    texts += [
        str(c.get("content", "")) for c in iter_components(list(components)) if c.get("type") == 10
    ]
    found: list[int] = []
    for text in texts:
        for match in _USER_MENTION.finditer(text):
            user = int(match.group(1))
            if user not in found:
                found.append(user)
    return found


def pinged_users(payload: Mapping[str, Any], flags: int) -> list[int]:
    """The users a newly created message with ``payload`` notifies (before visibility)."""
    if flags & FLAG_SUPPRESS_NOTIFICATIONS:
        return []
    mentioned = mentioned_users(str(payload.get("content") or ""), payload.get("components") or [])
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    named = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in named]
