"""REST handlers: channels, messages and threads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.models import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
)
from tests.fakediscord.rest import (
    FormErrors,
    Req,
    Upload,
    bot_permissions,
    channel_message_or_404,
    channel_or_404,
    create_message_from,
    delete_message_record,
    edit_message_with,
    require_permissions,
    route,
    thread_member_payload,
)
from tests.fakediscord.validation import (
    DiscordError,
    unknown,
)

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


# ====================================================================== channels & messages


@route("GET", "/channels/{channel}")
async def get_channel(fake: FakeDiscord, req: Req) -> Any:
    return channel_or_404(fake, req).payload(fake.users)


@route("PATCH", "/channels/{channel}")
async def edit_channel(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    body = req.payload or {}
    perms = bot_permissions(fake, chan)
    if chan.is_thread:
        owner = chan.owner_id == fake.bot_user.id
        if "locked" in body and not perms & MANAGE_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        if not owner and not perms & MANAGE_THREADS and set(body) - {"archived"}:
            raise DiscordError(403, 50013, "Missing Permissions")
        if chan.locked and body.get("archived") is False and not perms & MANAGE_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
    elif not perms & MANAGE_CHANNELS:
        raise DiscordError(403, 50013, "Missing Permissions")
    errors = FormErrors()
    if "name" in body and not 1 <= len(body["name"] or "") <= 100:
        errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    errors.raise_if_any()
    for key in ("name", "archived", "locked", "auto_archive_duration", "invitable"):
        if key in body and body[key] is not None:
            setattr(chan, key, body[key])
    fake._emit(
        "THREAD_UPDATE" if chan.is_thread else "CHANNEL_UPDATE", chan.payload(), chan.guild_id
    )
    return chan.payload()


@route("DELETE", "/channels/{channel}")
async def delete_channel(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    require_permissions(fake, chan, MANAGE_THREADS if chan.is_thread else MANAGE_CHANNELS)
    chan.deleted = True
    fake._emit(
        "THREAD_DELETE" if chan.is_thread else "CHANNEL_DELETE", chan.payload(), chan.guild_id
    )
    return chan.payload()


def _check_can_send(fake: FakeDiscord, chan: Channel, uploads: list[Upload]) -> None:
    needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if chan.is_thread else SEND_MESSAGES)
    if uploads:
        needed |= ATTACH_FILES
    require_permissions(fake, chan, needed)
    if chan.is_thread and chan.archived:
        if chan.locked and not bot_permissions(fake, chan) & MANAGE_THREADS:
            raise DiscordError(400, 50083, "Thread is archived")
        chan.archived = False  # sending in an archived (unlocked) thread unarchives it
    private = chan.type == PRIVATE_THREAD and fake.bot_user.id not in chan.member_ids
    if private and not bot_permissions(fake, chan) & MANAGE_THREADS:
        raise DiscordError(403, 50001, "Missing Access")


@route("POST", "/channels/{channel}/messages")
async def send_message(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    body = req.payload or {}
    nonce = body.get("nonce")
    enforced = nonce is not None and bool(body.get("enforce_nonce"))
    if enforced:
        # Discord: "If true and nonce is present, it will be checked for uniqueness in the past
        # few minutes. If another message was created by the same author with the same nonce,
        # that message will be returned and no new message will be created."
        earlier = fake.nonced_message(fake.bot_user, str(nonce))
        if earlier is not None and not earlier.deleted:
            return {**earlier.payload(), "nonce": nonce}
    _check_can_send(fake, chan, req.uploads)
    msg = create_message_from(fake, chan, body, req.uploads)
    if enforced:
        fake.remember_nonce(fake.bot_user, str(nonce), msg)
    data = msg.payload()
    if nonce is not None:
        data["nonce"] = nonce  # only the create's answer carries it, not later reads
    return data


@route("GET", "/channels/{channel}/messages")
async def list_messages(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    require_permissions(fake, chan, VIEW_CHANNEL)
    msgs = [m for m in fake.messages(chan) if not m.ephemeral]
    limit = int(req.query.get("limit", 50))
    if "before" in req.query:
        msgs = [m for m in msgs if m.id < int(req.query["before"])]
    if "after" in req.query:
        msgs = [m for m in msgs if m.id > int(req.query["after"])][:limit]
    msgs = list(reversed(msgs))[:limit]  # newest first, like Discord
    return [m.payload() for m in msgs]


@route("GET", "/channels/{channel}/messages/{message}")
async def get_message(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    return channel_message_or_404(fake, chan, req).payload()


@route("PATCH", "/channels/{channel}/messages/{message}")
async def edit_message(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    msg = channel_message_or_404(fake, chan, req)
    if msg.author.id != fake.bot_user.id:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    if chan.is_thread and chan.archived and chan.locked:
        raise DiscordError(400, 50083, "Thread is archived")
    edit_message_with(fake, msg, req.payload or {}, req.uploads)
    return msg.payload()


@route("DELETE", "/channels/{channel}/messages/{message}")
async def delete_message(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    msg = channel_message_or_404(fake, chan, req)
    if msg.author.id != fake.bot_user.id:
        require_permissions(fake, chan, MANAGE_MESSAGES)
    delete_message_record(fake, msg)
    return None


@route("POST", "/channels/{channel}/typing")
async def typing(fake: FakeDiscord, req: Req) -> Any:
    channel_or_404(fake, req)
    return None


@route("PUT", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me")
@route("DELETE", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me")
async def own_reaction(fake: FakeDiscord, req: Req) -> Any:
    channel_message_or_404(fake, channel_or_404(fake, req), req)
    return None


# ====================================================================== threads


def _new_thread(
    fake: FakeDiscord, parent: Channel, body: dict[str, Any], ttype: int, tid: int | None
) -> Channel:
    errors = FormErrors()
    name = body.get("name") or ""
    if not 1 <= len(name) <= 100:
        errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if body.get("auto_archive_duration", 1440) not in (60, 1440, 4320, 10080):
        errors.add(
            ("auto_archive_duration",),
            "BASE_TYPE_CHOICES",
            "Value must be one of (60, 1440, 4320, 10080).",
        )
    errors.raise_if_any()
    thread = Channel(
        tid or fake.ids.next(),
        ttype,
        name,
        parent.guild_id,
        parent_id=parent.id,
        owner_id=fake.bot_user.id,
        auto_archive_duration=body.get("auto_archive_duration", 1440),
        invitable=body.get("invitable", True),
        created_at=fake.clock.iso(),
    )
    thread.member_ids.add(fake.bot_user.id)
    fake.channels[thread.id] = thread
    assert parent.guild_id is not None
    fake.guilds[parent.guild_id].channel_ids.append(thread.id)
    fake._emit(
        "THREAD_CREATE",
        {
            **thread.payload(),
            "newly_created": True,
            "member": thread_member_payload(thread, fake.bot_user.id, fake),
        },
        thread.guild_id,
    )
    return thread


@route("POST", "/channels/{channel}/messages/{message}/threads")
async def start_thread_from_message(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    if chan.type != GUILD_TEXT:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    msg = channel_message_or_404(fake, chan, req)
    require_permissions(fake, chan, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
    if msg.thread_id is not None:
        raise DiscordError(400, 160004, "A thread has already been created for this message")
    thread = _new_thread(fake, chan, req.payload or {}, PUBLIC_THREAD, msg.id)
    msg.thread_id = thread.id
    return thread.payload()


@route("POST", "/channels/{channel}/threads")
async def start_thread(fake: FakeDiscord, req: Req) -> Any:
    chan = channel_or_404(fake, req)
    if chan.type != GUILD_TEXT:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    body = req.payload or {}
    ttype = int(body.get("type") or PRIVATE_THREAD)
    if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    require_permissions(
        fake,
        chan,
        VIEW_CHANNEL
        | (CREATE_PUBLIC_THREADS if ttype == PUBLIC_THREAD else CREATE_PRIVATE_THREADS),
    )
    return _new_thread(fake, chan, body, ttype, None).payload()


def _thread(fake: FakeDiscord, req: Req) -> Channel:
    chan = channel_or_404(fake, req)
    if not chan.is_thread:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    return chan


@route("PUT", "/channels/{channel}/thread-members/{user}")
async def add_thread_member(fake: FakeDiscord, req: Req) -> Any:
    thread = _thread(fake, req)
    uid = fake.bot_user.id if req.args["user"] == "@me" else req.int_arg("user")
    if thread.archived:
        raise DiscordError(400, 50083, "Thread is archived")
    assert thread.guild_id is not None
    if uid not in fake.guilds[thread.guild_id].members:
        raise unknown("Member", 10007)
    if uid != fake.bot_user.id:
        require_permissions(fake, thread, SEND_MESSAGES_IN_THREADS)
        if thread.type == PRIVATE_THREAD and fake.bot_user.id not in thread.member_ids:
            require_permissions(fake, thread, MANAGE_THREADS)
    thread.member_ids.add(uid)
    if uid == fake.bot_user.id:
        fake._emit(
            "THREAD_MEMBER_UPDATE",
            {**thread_member_payload(thread, uid, fake), "guild_id": str(thread.guild_id)},
            thread.guild_id,
        )
    else:
        fake._emit(
            "THREAD_MEMBERS_UPDATE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "member_count": len(thread.member_ids),
                "added_members": [thread_member_payload(thread, uid, fake)],
            },
            thread.guild_id,
            intents=_members_update_intents(fake, uid),
        )
    return None


@route("DELETE", "/channels/{channel}/thread-members/{user}")
async def remove_thread_member(fake: FakeDiscord, req: Req) -> Any:
    thread = _thread(fake, req)
    uid = fake.bot_user.id if req.args["user"] == "@me" else req.int_arg("user")
    if uid != fake.bot_user.id and thread.owner_id != fake.bot_user.id:
        require_permissions(fake, thread, MANAGE_THREADS)
    thread.member_ids.discard(uid)
    fake._emit(
        "THREAD_MEMBERS_UPDATE",
        {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": len(thread.member_ids),
            "removed_member_ids": [str(uid)],
        },
        thread.guild_id,
        intents=_members_update_intents(fake, uid),
    )
    return None


def _members_update_intents(fake: FakeDiscord, uid: int) -> int:
    """THREAD_MEMBERS_UPDATE about other users needs the privileged GUILD_MEMBERS intent."""
    from tests.fakediscord.gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS

    return INTENT_GUILDS if uid == fake.bot_user.id else INTENT_GUILDS | INTENT_GUILD_MEMBERS


@route("GET", "/channels/{channel}/thread-members")
async def list_thread_members(fake: FakeDiscord, req: Req) -> Any:
    thread = _thread(fake, req)
    return [thread_member_payload(thread, uid, fake) for uid in sorted(thread.member_ids)]


@route("GET", "/channels/{channel}/thread-members/{user}")
async def get_thread_member(fake: FakeDiscord, req: Req) -> Any:
    thread = _thread(fake, req)
    uid = req.int_arg("user")
    if uid not in thread.member_ids:
        raise unknown("Member", 10007)
    return thread_member_payload(thread, uid, fake)
