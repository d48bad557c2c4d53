"""What a game costs its thread: messages created, image bytes uploaded, pings sent.

Counted from what the fake Discord saw (``FakeDiscord.notifications``, ``upload_log``), so a
message the bot deleted again still counts as created, and a mention added by an edit (which
Discord never notifies) does not count as a ping.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.bot.discord.conftest import World
from tests.fakediscord.models import Channel
from tests.fakediscord.scripting import ScriptedUser


@dataclass(frozen=True, slots=True)
class ThreadCounts:
    """A thread's messages created by the bot, image bytes uploaded to it, and pings."""

    messages: int
    image_bytes: int
    pings: dict[str, int]

    def line(self, name: str, decisions: int) -> str:
        """The figures in one printable line."""
        pings = ", ".join(f"{user} {count}" for user, count in self.pings.items())
        return (
            f"{name}: {decisions} person decisions, {self.messages} thread messages, "
            f"{self.image_bytes / 1e6:.2f} MB of images, pings: {pings}"
        )


def thread_counts(world: World, thread: Channel, users: list[ScriptedUser]) -> ThreadCounts:
    """Count what the bot did in ``thread`` so far (the lobby message is not in it)."""
    fake = world.fake
    bot = fake.bot_user.id
    created = [
        m
        for m in fake.messages_by_id.values()
        if m.channel_id == thread.id and m.author.id == bot and not m.ephemeral
    ]
    uploaded = sum(size for channel, _message, size in fake.upload_log if channel == thread.id)
    pings = {u.name: len([n for n in fake.pings(u) if n.channel_id == thread.id]) for u in users}
    return ThreadCounts(len(created), uploaded, pings)
