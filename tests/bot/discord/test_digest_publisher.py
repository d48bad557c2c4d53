"""The publisher's turn digest while slow bots think: their moves arrive one delivery at a
time and edit the one digest message; the turn of a person who must be pinged brings it down
to the bottom as a new message (an edit never notifies), and the old one goes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui.publisher import Publisher
from bot.discord_ui.rendering import Renderer
from bot.model.effects import Effects, PublicUpdate
from bot.model.table import Phase, Seat, TableRecord
from i18n.message import msg

ALICE, BOB = 100, 200


@dataclass
class Posted:
    """A message the stub thread holds."""

    id: int
    content: str
    files: int
    view: Any
    pinged: list[int]
    edits: int = 0
    deleted: bool = False


@dataclass
class StubThread:
    """Just enough of a discord.py thread for the publisher."""

    id: int = 9
    messages: list[Posted] = field(default_factory=list)

    async def send(self, **kwargs: Any) -> Any:
        allowed = kwargs.get("allowed_mentions") or discord.AllowedMentions.none()
        users = allowed.users if isinstance(allowed.users, list) else []
        posted = Posted(
            len(self.messages) + 1,
            kwargs["content"],
            len(kwargs.get("files", [])),
            kwargs.get("view"),
            [u.id for u in users],
        )
        self.messages.append(posted)
        return posted

    def get_partial_message(self, message_id: int) -> Any:
        thread = self

        class Partial:
            id = message_id

            async def edit(self, **kwargs: Any) -> None:
                message = thread.messages[message_id - 1]
                message.edits += 1
                if "content" in kwargs:
                    message.content = kwargs["content"]
                if "attachments" in kwargs:
                    message.files = len(kwargs["attachments"])
                if "view" in kwargs:
                    message.view = kwargs["view"]

            async def delete(self) -> None:
                thread.messages[message_id - 1].deleted = True

        return Partial()

    async def history(self, limit: int) -> AsyncIterator[Any]:
        for message in ():
            yield message


class StubBot:
    def __init__(self, thread: StubThread) -> None:
        self.thread = thread
        self.user = discord.Object(1)

    def get_channel(self, channel_id: int) -> Any:
        return self.thread

    def get_guild(self, guild_id: int) -> None:
        return None


def table(version: int) -> TableRecord:
    seats = (
        Seat(0, user_id=ALICE, name="alice"),
        Seat(1, name="Bot 2", bot_level="hard"),
        Seat(2, user_id=BOB, name="bob"),
        Seat(3, name="Bot 4", bot_level="hard"),
    )
    return TableRecord(1, 5, 6, "tock", {}, 1, ALICE, seats, Phase.PLAYING, version, thread_id=9)


def move(version: int, actor: int, to_act: int, *, person: bool) -> PublicUpdate:
    view = {"game": "tock", "seats": [0, 1, 2, 3], "to_act": [to_act], "events": []}
    events = ({"kind": "play", "seat": actor, "data": {"card": "5"}},)
    return PublicUpdate(
        1,
        "action",
        msg("table.begins", game=f"move {version}"),
        version,
        view,
        (to_act,),
        actor=actor,
        events=events,
        by_person=person,
    )


async def test_slow_bot_moves_edit_one_digest_and_a_due_ping_reposts_it() -> None:
    views: list[dict[str, Any]] = []

    def board(view: Any, **kwargs: Any) -> bytes:
        views.append(dict(view))
        return b"png"

    thread = StubThread()
    publisher = Publisher(Renderer(render_board=board))
    publisher.bot = StubBot(thread)  # type: ignore[assignment]
    clock = [1000.0]
    acted = {ALICE: 1000.0, BOB: 900.0}  # bob last acted 100 s ago
    publisher.now = lambda: clock[0]
    publisher.prompt_since = lambda table_id, user: acted.get(user)

    # Alice moves: a new digest, created (the slow bot after her has not moved yet).
    await publisher.deliver(Effects(table(2), [move(2, 0, 1, person=True)]))
    assert len(thread.messages) == 1
    # The slow bot's move arrives: the same message, edited, its board redrawn with both moves.
    await publisher.deliver(Effects(table(3), [move(3, 1, 3, person=False)]))
    assert len(thread.messages) == 1
    assert thread.messages[0].edits == 1
    assert len(views[-1]["recent"]) == 2
    # The next slow bot hands the turn to bob, who has not acted for 100 s: an edit would not
    # notify him, so the digest comes down to the bottom as a new message that pings him.
    await publisher.deliver(Effects(table(4), [move(4, 3, 2, person=False)]))
    first, second = thread.messages
    assert first.deleted
    assert second.pinged == [BOB]
    assert second.content.count("\n") >= 3, "the three moves and the turn line"
    assert len(views[-1]["recent"]) == 3
    # Exactly one live message carries the controls.
    live = [m for m in thread.messages if not m.deleted and m.view is not None]
    assert live == [second]


async def test_no_ping_right_after_acting_with_the_prompt_open() -> None:
    thread = StubThread()
    publisher = Publisher(Renderer(render_board=lambda view, **kwargs: b"png"))
    publisher.bot = StubBot(thread)  # type: ignore[assignment]
    publisher.now = lambda: 1000.0
    publisher.prompt_since = lambda table_id, user: 990.0  # both acted 10 s ago, hands open
    await publisher.deliver(Effects(table(2), [move(2, 2, 0, person=True)]))
    assert thread.messages[0].pinged == []
    # Without a prompt that follows the game, the person whose turn begins is pinged.
    publisher.prompt_since = None
    await publisher.deliver(Effects(table(3), [move(3, 0, 2, person=True)]))
    assert thread.messages[-1].pinged == [BOB]


@dataclass
class RecordingService:
    """The table service as the publisher sees it, noting the posting lease's calls."""

    thread: StubThread
    calls: list[str] = field(default_factory=list)
    outbox_lease_seconds: float = 1.0

    async def claim_board(self, table_id: int) -> bool:
        self.calls.append("claim")
        return True

    async def replacing_board(self, table_id: int, message_id: int) -> None:
        self.calls.append(f"replacing {message_id}")

    async def release_board(self, table_id: int) -> None:
        self.calls.append("release")

    async def board_delivered(self, table_id: int, version: int, message_id: int) -> None:
        self.calls.append(f"recorded {version} as {message_id}")

    async def board_of(self, table_id: int) -> tuple[int, int | None]:
        return 0, None


async def test_a_repost_names_the_digest_it_replaces_before_it_is_sent() -> None:
    # Each post and edit of a digest happens under the table's posting lease; a message that
    # first shows a version's board carries that version's nonce; a re-post at the bottom
    # stores which digest it replaces before it is sent (a crash after the send leaves the
    # next process able to delete it).
    thread = StubThread()
    service = RecordingService(thread)
    publisher = Publisher(Renderer(render_board=lambda view, **kwargs: b"png"), service)
    publisher.bot = StubBot(thread)  # type: ignore[assignment]
    publisher.now = lambda: 1000.0
    publisher.prompt_since = lambda table_id, user: {ALICE: 1000.0}.get(user)
    nonces: list[str | None] = []
    send = thread.send

    async def sending(**kwargs: Any) -> Any:
        nonces.append(kwargs.get("nonce"))
        service.calls.append("send")
        return await send(**kwargs)

    thread.send = sending  # type: ignore[method-assign]
    await publisher.deliver(Effects(table(2), [move(2, 0, 1, person=True)]))
    await publisher.deliver(Effects(table(3), [move(3, 1, 3, person=False)]))
    await publisher.deliver(Effects(table(4), [move(4, 3, 2, person=False)]))  # bob pinged
    assert nonces == ["b1.2", "b1.4"]
    assert service.calls == [
        "claim",
        "send",
        "recorded 2 as 1",
        "release",
        "claim",  # the slow bot's move edits the digest
        "recorded 3 as 1",
        "release",
        "claim",
        "replacing 1",
        "send",
        "recorded 4 as 2",
        "release",
    ]
    assert thread.messages[0].deleted
