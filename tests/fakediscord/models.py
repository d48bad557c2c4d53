"""State of the fake Discord: guilds, channels, users, members, messages, interactions.

Every entity knows how to turn itself into the JSON payload Discord would send, so that
discord.py parses it exactly as it parses the real thing.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

#: What @everyone may do in a freshly created guild (close to Discord's defaults).
DEFAULT_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
ALL_PERMISSIONS = (1 << 50) - 1

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)


class FakeClock:
    """Wall clock that tests push forward (past the 3 s / 15 min limits) without sleeping."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Seconds since the Unix epoch, including every `advance`."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward by `seconds`."""
        self.offset += seconds

    def iso(self, at: float | None = None) -> str:
        """ISO-8601 timestamp as Discord formats them."""
        moment = self.now() if at is None else at
        return dt.datetime.fromtimestamp(moment, dt.UTC).isoformat()


class SnowflakeFactory:
    """Creates increasing snowflakes whose timestamp part is unique per id.

    A unique timestamp part matters: shard routing uses `(guild_id >> 22) % shard_count`, so
    guilds created in a row spread over the shards instead of all landing on shard 0.
    """

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.last_ms = 0

    def next(self) -> int:
        """A fresh snowflake."""
        ms = int(self.clock.now() * 1000) - DISCORD_EPOCH_MS
        self.last_ms = max(ms, self.last_ms + 1)
        return self.last_ms << 22


@dataclass
class User:
    """A Discord user (a scripted human or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        """User object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """Role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    """Membership of a user in a guild."""

    user: User
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = "2024-01-01T00:00:00+00:00"

    def payload(self, with_user: bool = True) -> dict[str, Any]:
        """Guild member object."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": None,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Channel:
    """A guild text channel, a thread or a DM channel."""

    id: int
    type: int
    name: str
    guild_id: int | None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: str = ""
    member_ids: set[int] = field(default_factory=set)  # thread members
    recipient_id: int | None = None  # DM channels
    message_count: int = 0
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in THREAD_TYPES

    def payload(self, users: dict[int, User] | None = None) -> dict[str, Any]:
        """Channel object."""
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name}
        if self.type == DM:
            recipient = (users or {}).get(self.recipient_id or 0)
            data["recipients"] = [recipient.payload()] if recipient else []
            data["last_message_id"] = None
            return data
        data.update(
            {
                "guild_id": str(self.guild_id),
                "position": self.position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": str(self.parent_id) if self.parent_id else None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
                "flags": 0,
            }
        )
        if self.is_thread:
            data.update(
                {
                    "owner_id": str(self.owner_id) if self.owner_id else None,
                    "message_count": self.message_count,
                    "total_message_sent": self.message_count,
                    "member_count": len(self.member_ids),
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.created_at,
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": self.created_at,
                    },
                }
            )
        return data


@dataclass
class Guild:
    """A guild with its roles, members and channels (ids point into the fake's tables)."""

    id: int
    name: str
    locale: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions of a member (roles OR-ed; owner and admins get everything)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions
        member = self.members.get(user_id)
        if member is not None:
            for rid in member.role_ids:
                perms |= self.roles[rid].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms


@dataclass
class StoredFile:
    """An uploaded file: kept with its bytes so tests can inspect what the bot sent."""

    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None

    def url(self, base: str, channel_id: int) -> str:
        """Where the fake serves the file (discord.py's `Attachment.read()` fetches it)."""
        return f"{base}/attachments/{channel_id}/{self.id}/{self.filename}"

    def payload(self, base: str, channel_id: int) -> dict[str, Any]:
        """Attachment object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url(base, channel_id),
            "proxy_url": self.url(base, channel_id),
            "content_type": self.content_type,
        }
        size = png_size(self.data)
        if size is not None:
            data["width"], data["height"] = size
        if self.description:
            data["description"] = self.description
        return data


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, or None if `data` is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def content_type_of(filename: str) -> str:
    """MIME type Discord would infer from the file name."""
    lower = filename.lower()
    for ext, mime in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".gif", "image/gif"),
        (".webp", "image/webp"),
        (".txt", "text/plain; charset=utf-8"),
        (".json", "application/json; charset=utf-8"),
    ):
        if lower.endswith(ext):
            return mime
    return "application/octet-stream"


@dataclass
class Message:
    """A message as the fake stores it.

    `files` holds every uploaded file; the `attachments` Discord reports leave out those that an
    embed or a component shows via `attachment://name` (a real Discord behaviour).
    `visible_to` is None for public messages, else the ids of the users who can see it (ephemeral).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[StoredFile] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    visible_to: frozenset[int] | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None  # a thread started from this message
    deleted: bool = False
    base_url: str = ""

    @property
    def ephemeral(self) -> bool:
        """Whether only some users can see the message."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred 'is thinking…' placeholder."""
        return bool(self.flags & FLAG_LOADING)

    def visible_for(self, user: User | int) -> bool:
        """Whether `user` sees this message."""
        uid = user if isinstance(user, int) else user.id
        return not self.deleted and (self.visible_to is None or uid in self.visible_to)

    @property
    def attachments(self) -> list[StoredFile]:
        """Files Discord lists in `attachments` (not those shown by embeds or components)."""
        shown = referenced_attachments(self.embeds, self.components)
        return [f for f in self.files if f.filename not in shown]

    def file(self, filename: str) -> StoredFile:
        """An uploaded file by name, listed in `attachments` or shown by an embed/component."""
        for f in self.files:
            if f.filename == filename:
                return f
        raise KeyError(
            f"message {self.id} has no file {filename!r}: {[f.filename for f in self.files]}"
        )

    @property
    def file_bytes(self) -> dict[str, bytes]:
        """Bytes of every uploaded file, by file name."""
        return {f.filename: f.data for f in self.files}

    @property
    def text(self) -> str:
        """Content plus every text display / embed text, to make assertions on wording easy."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
        parts += [c.get("content", "") for c in iter_components(self.components) if c["type"] == 10]
        return "\n".join(p for p in parts if p)

    def find_component(
        self, *, label: str | None = None, custom_id: str | None = None, type: int | None = None
    ) -> dict[str, Any]:
        """The first component matching every given criterion; KeyError listing what exists."""
        for comp in iter_components(self.components):
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if type is not None and comp.get("type") != type:
                continue
            return comp
        existing = [
            (c.get("type"), c.get("label"), c.get("custom_id"))
            for c in iter_components(self.components)
            if "custom_id" in c or "label" in c
        ]
        raise KeyError(f"no component label={label!r} custom_id={custom_id!r}; have {existing}")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every button in the message, in display order."""
        return [c for c in iter_components(self.components) if c["type"] == 2]

    def payload(self) -> dict[str, Any]:
        """Message object as Discord returns it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [f.payload(self.base_url, self.channel_id) for f in self.attachments],
            "embeds": [resolve_embed(e, self) for e in self.embeds],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": resolve_media(self.components, self),
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread_id is not None:
            data["thread"] = {"id": str(self.thread_id)}
        return data


def iter_components(components: list[dict[str, Any]]) -> Any:
    """Depth-first walk over components, including section accessories and label children."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from iter_components([comp[key]])


def media_urls(comp: dict[str, Any]) -> list[str]:
    """URLs a V2 component displays (thumbnail, media gallery items, file)."""
    urls: list[str] = []
    if comp.get("type") == 11:
        urls.append(comp.get("media", {}).get("url", ""))
    elif comp.get("type") == 12:
        urls += [item.get("media", {}).get("url", "") for item in comp.get("items", [])]
    elif comp.get("type") == 13:
        urls.append(comp.get("file", {}).get("url", ""))
    return urls


def embed_urls(embed: dict[str, Any]) -> list[str]:
    """URLs an embed displays."""
    return [
        embed.get(key, {}).get("url", "") or embed.get(key, {}).get("icon_url", "")
        for key in ("image", "thumbnail", "footer", "author")
    ]


def referenced_attachments(
    embeds: list[dict[str, Any]], components: list[dict[str, Any]]
) -> set[str]:
    """File names referenced as `attachment://name` by embeds or components."""
    urls: list[str] = []
    for embed in embeds:
        urls += embed_urls(embed)
    for comp in iter_components(components):
        urls += media_urls(comp)
    return {u.removeprefix("attachment://") for u in urls if u.startswith("attachment://")}


def _cdn(url: str, message: Message) -> dict[str, Any]:
    """What Discord turns an `attachment://name` reference into."""
    name = url.removeprefix("attachment://")
    for f in message.files:
        if f.filename == name:
            resolved: dict[str, Any] = {
                "url": f.url(message.base_url, message.channel_id),
                "proxy_url": f.url(message.base_url, message.channel_id),
                "content_type": f.content_type,
                "attachment_id": str(f.id),
            }
            size = png_size(f.data)
            if size:
                resolved["width"], resolved["height"] = size
            return resolved
    return {"url": url}


def resolve_embed(embed: dict[str, Any], message: Message) -> dict[str, Any]:
    """Embed with `attachment://` URLs replaced by served URLs."""
    out = dict(embed)
    out.setdefault("type", "rich")
    for key in ("image", "thumbnail"):
        url = embed.get(key, {}).get("url", "")
        if url.startswith("attachment://"):
            out[key] = {**embed[key], **_cdn(url, message)}
    return out


def resolve_media(components: list[dict[str, Any]], message: Message) -> list[dict[str, Any]]:
    """Components with `attachment://` media URLs replaced by served URLs."""
    out = []
    for comp in components:
        c = dict(comp)
        if "components" in c:
            c["components"] = resolve_media(c["components"], message)
        if isinstance(c.get("accessory"), dict):
            c["accessory"] = resolve_media([c["accessory"]], message)[0]
        if c.get("type") == 11 and str(c.get("media", {}).get("url", "")).startswith("attachment:"):
            c["media"] = {**c["media"], **_cdn(c["media"]["url"], message)}
        if c.get("type") == 12:
            c["items"] = [
                {**item, "media": {**item["media"], **_cdn(item["media"]["url"], message)}}
                if str(item.get("media", {}).get("url", "")).startswith("attachment:")
                else item
                for item in c.get("items", [])
            ]
        if c.get("type") == 13 and str(c.get("file", {}).get("url", "")).startswith("attachment:"):
            c["file"] = {**c["file"], **_cdn(c["file"]["url"], message)}
        out.append(c)
    return out


@dataclass
class Interaction:
    """One interaction the fake sent to the bot, and everything the bot did in answer to it.

    `responses` records (callback type, data) of the initial response; `message_ids` lists the
    messages this interaction produced, the original response first when there is one.
    """

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    created_at: float
    payload: dict[str, Any]
    source_message_id: int | None = None  # the message whose component was used
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    deferred_ephemeral: bool = False
    last_activity: float = 0.0
    activity: int = 0  # requests that touched this interaction (callback, follow-ups, edits)
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        """Whether the bot sent its initial response."""
        return self.response_type is not None
