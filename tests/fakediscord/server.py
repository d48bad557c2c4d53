"""`FakeDiscord`: a strict local Discord (REST + gateway) for end-to-end tests of a discord.py bot.

Usage::

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern", locale="de")
        chan = fake.add_channel(guild, "games")
        alice = fake.add_user("alice", guild=guild)
        bot = MyBot(...)                        # any discord.py Client / Bot / AutoShardedBot
        async with fake.running(bot):           # starts it against the fake, waits for READY
            res = await alice.slash(chan, "tock new", players=4)

`discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` are pointed at the fake while
it runs (and restored afterwards).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import yarl
from aiohttp import web

# Importing the route modules registers their handlers with `rest.route`.
from tests.fakediscord import (  # noqa: F401
    rest,
    routes_channels,
    routes_interactions,
    routes_meta,
    routes_oauth,
)
from tests.fakediscord.faults import Fault, FaultQueue, Only, rate_limit, server_error
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.models import (
    DEFAULT_PERMISSIONS,
    DM,
    FLAG_EPHEMERAL,
    GUILD_TEXT,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    VIEW_CHANNEL,
    Channel,
    FakeClock,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    SnowflakeFactory,
    StoredFile,
    User,
)
from tests.fakediscord.notifications import Notification
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.validation import DiscordError

if TYPE_CHECKING:
    from tests.fakediscord.scripting import ScriptedUser

INTERACTION_RESPONSE_WINDOW = 3.0  # seconds to send the initial response
#: How long Discord keeps an enforced nonce ("checked for uniqueness in the past few minutes").
NONCE_WINDOW = 180.0
WEBHOOK_TOKEN_LIFETIME = 15 * 60.0  # seconds a follow-up token stays valid


@dataclass
class RequestRecord:
    """One REST request the bot made, and the status it got."""

    method: str
    path: str
    status: int
    body: Any = None
    error: DiscordError | None = None


class FakeDiscord:
    """A local Discord: state, REST API, gateway, fault injection and scripted users.

    Strictness switches (attributes, set them before the bot acts):
    - `privileged_intents`: intents bitmask the application is allowed (default 0: none).
    - `fail_v2_edits_with_new_media`: reproduce discord-api-docs#7529 — editing a Components V2
      message so that a media gallery shows a newly uploaded file fails with 400.
    - `settle_time`: quiet period (s) after which an interaction's answer counts as settled.
    - `response_window` (3 s) / `token_lifetime` (15 min): deadlines of the initial response and
      of follow-ups, measured on `clock` (real time plus `clock.advance`).
    - `nonce_window` (s): how long a create with `enforce_nonce` and the same `nonce` (same
      author) returns the first message instead of making a new one ("the past few minutes",
      Discord says; tests shorten it to reach the bot's search of the channel instead).
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Pöppel",
        recommended_shards: int = 1,
    ) -> None:
        self.clock = FakeClock()
        self.ids = SnowflakeFactory(self.clock)
        self.token = token or "fake." + secrets.token_urlsafe(24)
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.recommended_shards = recommended_shards
        self.privileged_intents = 0
        self.fail_v2_edits_with_new_media = False
        self.settle_time = 0.05
        self.response_window = INTERACTION_RESPONSE_WINDOW
        self.token_lifetime = WEBHOOK_TOKEN_LIFETIME
        self.nonce_window = NONCE_WINDOW
        #: What an action also waits for once its answer settled: a bot that answers first
        #: and posts its boards after registers "its posts for this click are out" here (the
        #: user looks at the thread a moment later, when they are there).
        self.after_settle: list[Callable[[], Awaitable[None]]] = []
        #: (author id, nonce) -> (when, message id) of creates that enforced their nonce.
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.scripted: dict[int, ScriptedUser] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages_by_id: dict[int, Message] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.uploads: dict[int, StoredFile] = {}  # files users attached to slash options
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[RequestRecord] = []
        #: Every notification Discord sent (created messages only; see notifications.py).
        self.notifications: list[Notification] = []
        #: Bytes of the files each create or edit uploaded: (channel id, message id, bytes).
        self.upload_log: list[tuple[int, int, int]] = []
        #: Discord's rate limits, off until a test enables them (see ratelimits.py).
        self.rate_limits = RateLimits()
        self.unknown_routes: list[tuple[str, str]] = []
        self.internal_errors: list[str] = []  # bugs of the fake itself (see rest.handle)
        self.faults = FaultQueue()
        self.gateway = Gateway(self)
        self._websockets: set[web.WebSocketResponse] = set()
        self._condition: asyncio.Condition | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self._old_base: str | None = None
        self._old_gateway: yarl.URL | None = None
        self.port = 0
        #: OAuth2 (an Activity's sign-in, routes_oauth): the app's client secret, the codes
        #: the Embedded App SDK's authorize gave out (code -> (user id, scopes)), and the
        #: access tokens they were exchanged for (token -> (user id, scopes)).
        self.client_secret = "fake-client-secret"
        self.oauth_codes: dict[str, tuple[int, tuple[str, ...]]] = {}
        self.oauth_tokens: dict[str, tuple[int, tuple[str, ...]]] = {}
        #: Activities enabled in the developer portal (see enable_activities); whether
        #: Discord lets one launch in a thread is not documented: a test may say no.
        self.activities_enabled = False
        self.activity_in_threads = True
        #: The interactions answered with LAUNCH_ACTIVITY (callback type 12), in order.
        self.launched: list[Interaction] = []

    # ------------------------------------------------------------------ OAuth2 and Activities

    def oauth_code(self, user: Any, scopes: tuple[str, ...] = ("identify", "guilds")) -> str:
        """The code the Embedded App SDK's ``authorize`` gives ``user``'s page (once)."""
        code = secrets.token_urlsafe(12)
        self.oauth_codes[code] = (int(user.id), tuple(scopes))
        return code

    def new_oauth_token(self, user_id: int, scopes: tuple[str, ...]) -> str:
        """An access token of ``user_id`` with ``scopes`` (the token endpoint's answer)."""
        token = secrets.token_urlsafe(18)
        self.oauth_tokens[token] = (user_id, scopes)
        return token

    def oauth_user(self, authorization: str, scope: str) -> User:
        """The user of a ``Bearer`` token that has ``scope``; 401 otherwise."""
        token = authorization.removeprefix("Bearer ") if authorization.startswith("Bearer ") else ""
        grant = self.oauth_tokens.get(token)
        if grant is None or grant[0] not in self.users:
            raise DiscordError(401, 0, "401: Unauthorized")
        if scope not in grant[1]:
            raise DiscordError(403, 50001, "Missing Access")
        return self.users[grant[0]]

    def enable_activities(self) -> dict[str, Any]:
        """Enable Activities for the app, as the developer portal does: Discord then creates
        the app's Entry Point command (type 4, ``launch``, handler 2: Discord launches the
        Activity itself), which a bulk overwrite of the global commands must keep."""
        self.activities_enabled = True
        command = {
            "id": str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "type": 4,
            "name": "launch",
            "description": "",
            "handler": 2,
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
        }
        self.global_commands.append(command)
        return command

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        """Base URL of the fake (http://127.0.0.1:PORT)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for `discord.http.Route.BASE`."""
        return f"{self.url}/api/v10"

    @property
    def ws_url(self) -> str:
        """Gateway URL announced by `/gateway/bot`."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1 and point discord.py at it."""
        self._condition = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel}/{file}/{name}", self._serve_file)
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._dispatch_rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._old_base = discord.http.Route.BASE
        self._old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        # Plain Clients (and sharded ones given a shard_count) skip /gateway/bot and dial this.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url)

    async def stop(self) -> None:
        """Close every websocket, stop listening and restore `Route.BASE`."""
        for ws in list(self._websockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._old_base is not None:
            discord.http.Route.BASE = self._old_base
        if self._old_gateway is not None:
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._old_gateway

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @contextlib.asynccontextmanager
    async def running(
        self,
        client: discord.Client,
        *,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> AsyncIterator[discord.Client]:
        """Run `client` against the fake until the block ends; waits until it is READY.

        For several shards, override `before_identify_hook` in the client to skip discord.py's
        5 s pause between IDENTIFYs.
        """
        task = asyncio.create_task(client.start(self.token))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the client's start-up error
            task.cancel()
            raise TimeoutError("the bot did not become ready against the fake Discord")
        try:
            yield client
        finally:
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)

    # ------------------------------------------------------------------ change tracking

    def _changed(self) -> None:
        """Wake up `wait_for` callers (state changed)."""
        if self._condition is None:
            return

        async def notify() -> None:
            assert self._condition is not None
            async with self._condition:
                self._condition.notify_all()

        self._spawn(notify())

    def _spawn(self, coro: Any) -> None:
        """Run `coro` in the background, keeping a reference so it is not garbage-collected."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        what: str = "",
    ) -> Any:
        """Wait until `predicate()` is truthy (re-checked on each change); return its value."""
        assert self._condition is not None, "start the fake first"
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"fake Discord: condition not met in {timeout}s {what}")
            async with self._condition:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._condition.wait(), min(left, 0.1))

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str, *, locale: str = "en-US", id: int | None = None) -> Guild:
        """Create a guild the bot is in (GUILD_CREATE is sent if the bot is connected)."""
        gid = id if id is not None else self.ids.next()
        owner = User(self.ids.next(), f"{name}-owner")
        self.users[owner.id] = owner
        guild = Guild(gid, name, locale, owner.id)
        guild.roles[gid] = Role(gid, "@everyone", DEFAULT_PERMISSIONS)
        bot_role = Role(
            self.ids.next(), self.bot_user.name, DEFAULT_PERMISSIONS | MANAGE_THREADS, 1
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role.id])
        guild.members[owner.id] = Member(owner)
        self.guilds[gid] = guild
        self._emit("GUILD_CREATE", self.guild_create_payload(guild), gid)
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        """Create a text channel."""
        chan = Channel(
            self.ids.next(),
            GUILD_TEXT,
            name,
            guild.id,
            position=len(guild.channel_ids),
            created_at=self.clock.iso(),
        )
        self.channels[chan.id] = chan
        guild.channel_ids.append(chan.id)
        self._emit("CHANNEL_CREATE", chan.payload(), guild.id)
        return chan

    def add_thread(
        self, parent: Channel, name: str, *, owner: User | None = None, private: bool = False
    ) -> Channel:
        """Create a thread directly in the state (as if a user had made it)."""
        assert parent.guild_id is not None
        thread = Channel(
            self.ids.next(),
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
            created_at=self.clock.iso(),
        )
        thread.member_ids.add(thread.owner_id or 0)
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].channel_ids.append(thread.id)
        self._emit("THREAD_CREATE", {**thread.payload(), "newly_created": True}, thread.guild_id)
        return thread

    def add_user(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        permissions: int | None = None,
        manage_threads: bool = False,
        locale: str = "en-US",
    ) -> ScriptedUser:
        """Create a scripted human; with `guild`, also make them a member of it.

        `permissions` adds a personal role with these permission bits; `manage_threads=True` is
        a shortcut for a moderator allowed to manage threads.
        """
        from tests.fakediscord.scripting import ScriptedUser

        user = User(self.ids.next(), name, locale=locale)
        self.users[user.id] = user
        scripted = ScriptedUser(self, user)
        self.scripted[user.id] = scripted
        if guild is not None:
            self.add_member(user, guild, permissions=permissions, manage_threads=manage_threads)
        return scripted

    def add_member(
        self,
        user: User | ScriptedUser,
        guild: Guild,
        *,
        permissions: int | None = None,
        manage_threads: bool = False,
    ) -> Member:
        """Make `user` a member of `guild`, optionally with extra permissions."""
        base = user if isinstance(user, User) else user.user
        roles = []
        extra = (permissions or 0) | (MANAGE_THREADS if manage_threads else 0)
        if extra:
            role = Role(self.ids.next(), f"{base.name}-role", extra, 1)
            guild.roles[role.id] = role
            roles.append(role.id)
        member = Member(base, roles, joined_at=self.clock.iso())
        guild.members[base.id] = member
        return member

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        """Create a role (usable as a role option / role select value, or given to members)."""
        role = Role(self.ids.next(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def give_role(self, user: User | ScriptedUser, guild: Guild, role: Role) -> None:
        """Add `role` to a member (changes their permissions)."""
        guild.members[user.id].role_ids.append(role.id)

    def set_bot_permissions(self, guild: Guild, permissions: int) -> None:
        """Replace the permissions of the bot's role in `guild` (to test missing permissions)."""
        role_id = guild.members[self.bot_user.id].role_ids[0]
        guild.roles[role_id].permissions = permissions
        guild.roles[guild.id].permissions = 0

    # ------------------------------------------------------------------ payload builders

    def guild_create_payload(self, guild: Guild) -> dict[str, Any]:
        """GUILD_CREATE body for `guild`."""
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "preferred_locale": guild.locale,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": self.clock.iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [guild.members[self.bot_user.id].payload()],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [
                c.payload() for c in channels if c.is_thread and self.bot_user.id in c.member_ids
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def member_payload(self, guild: Guild, user: User) -> dict[str, Any]:
        """Member object with the `permissions` field interactions carry."""
        member = guild.members[user.id]
        data = member.payload()
        data["permissions"] = str(guild.permissions_of(user.id))
        return data

    # ------------------------------------------------------------------ events

    def _emit(
        self, event: str, data: dict[str, Any], guild_id: int | None, *, intents: int | None = None
    ) -> None:
        """Dispatch an event to the shards in the background (callers are often sync).

        `intents` overrides the intents a session needs to get the event.
        """
        self._changed()
        if self._condition is None:
            return
        self._spawn(self.gateway.dispatch(event, data, guild_id, intents=intents))

    async def emit(self, event: str, data: dict[str, Any], guild_id: int | None) -> None:
        """Dispatch an event to the shards and wait until it was written to the sockets."""
        self._changed()
        await self.gateway.dispatch(event, data, guild_id)

    async def force_reconnect(self, shard_id: int | None = None) -> None:
        """Send RECONNECT (op 7): the client closes and RESUMEs its session."""
        await self.gateway.reconnect(shard_id)

    async def drop_connection(self, shard_id: int | None = None, code: int = 4000) -> None:
        """Close shards' websockets like a network failure (discord.py reconnects and RESUMEs)."""
        for session in self.gateway.live_sessions():
            if session.ws is not None and shard_id in (None, session.shard_id):
                await session.ws.close(code=code)

    async def invalidate_sessions(self, shard_id: int | None = None) -> None:
        """Send INVALID_SESSION (op 9, not resumable): the client must IDENTIFY anew."""
        await self.gateway.invalidate(shard_id)

    @property
    def connected_shards(self) -> set[int]:
        """Ids of the shards with a live websocket."""
        return {s.shard_id for s in self.gateway.live_sessions() if s.connected}

    # ------------------------------------------------------------------ fault injection

    def inject_fault(self, fault: Fault, times: int = 1) -> None:
        """Queue a custom fault for the next `times` matching requests."""
        self.faults.add(fault, times)

    def posts_in(self, channel_id: int) -> Only:
        """A :attr:`Fault.only` for the posts that make a public message in ``channel_id``,
        on its route or as a follow-up of an interaction there (a bot posts a click's board
        that way); not the follow-up that fills a "thinking" deferral, nor a private one."""

        def only(path: str, payload: Any) -> bool:
            if path == f"/channels/{channel_id}/messages":
                return True
            parts = path.split("/")
            if len(parts) != 4 or parts[1] != "webhooks":
                return False
            inter = self.interactions_by_token.get(parts[3])
            if inter is None or inter.channel_id != channel_id:
                return False
            original = self.messages_by_id.get(inter.original_id or 0)
            flags = int((payload or {}).get("flags") or 0) if isinstance(payload, dict) else 0
            return not (original is not None and original.loading) and not flags & FLAG_EPHEMERAL

        return only

    def inject_rate_limit(
        self,
        method: str,
        path: str,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        times: int = 1,
    ) -> None:
        """Answer the next `times` matching requests with 429 (path is a glob after /api/v10)."""
        self.faults.add(rate_limit(method, path, retry_after, is_global=is_global), times)

    def inject_server_error(
        self, method: str, path: str, *, status: int = 500, times: int = 1
    ) -> None:
        """Answer the next `times` matching requests with a 5xx."""
        self.faults.add(server_error(method, path, status), times)

    @property
    def rejected(self) -> list[RequestRecord]:
        """Requests the fake answered with a Discord error (4xx), injected faults excluded."""
        return [r for r in self.requests if r.error is not None]

    # ------------------------------------------------------------------ reading state

    def channel_of(self, channel: Channel | int) -> Channel:
        """Channel by object or id."""
        return self.channels[channel if isinstance(channel, int) else channel.id]

    def messages(
        self, channel: Channel | int, *, visible_to: User | ScriptedUser | None = None
    ) -> list[Message]:
        """Messages of a channel or thread, oldest first; only those `visible_to` sees if given."""
        cid = channel if isinstance(channel, int) else channel.id
        result = [self.messages_by_id[m] for m in self.channel_messages.get(cid, [])]
        result = [m for m in result if not m.deleted]
        if visible_to is not None:
            if not self.can_view_channel(visible_to, cid):
                return []
            uid = visible_to.id
            result = [m for m in result if m.visible_for(uid)]
        return result

    def can_view_channel(self, user: User | ScriptedUser, channel: Channel | int) -> bool:
        """Whether `user` sees a channel: private threads only for members and thread managers."""
        chan = self.channel_of(channel)
        if chan.type == DM:
            return user.id in (chan.recipient_id, self.bot_user.id)
        guild = self.guilds.get(chan.guild_id or 0)
        if guild is None or user.id not in guild.members:
            return False
        perms = guild.permissions_of(user.id)
        if not perms & VIEW_CHANNEL:
            return False
        if chan.type == PRIVATE_THREAD:
            return user.id in chan.member_ids or bool(perms & MANAGE_THREADS)
        return True

    def dm_channel(self, user: User | ScriptedUser) -> Channel | None:
        """The DM channel the bot opened with `user`, if any."""
        for chan in self.channels.values():
            if chan.type == DM and chan.recipient_id == user.id:
                return chan
        return None

    def last_message(
        self,
        channel: Channel | int,
        *,
        visible_to: User | ScriptedUser | None = None,
        author: User | ScriptedUser | None = None,
    ) -> Message | None:
        """Newest message of a channel (optionally as seen by a user / from an author)."""
        msgs = self.messages(channel, visible_to=visible_to)
        if author is not None:
            msgs = [m for m in msgs if m.author.id == author.id]
        return msgs[-1] if msgs else None

    def message(self, message_id: int) -> Message:
        """Message by id."""
        return self.messages_by_id[message_id]

    def threads(self, parent: Channel | int) -> list[Channel]:
        """Threads created under a channel, oldest first."""
        pid = parent if isinstance(parent, int) else parent.id
        return [c for c in self.channels.values() if c.parent_id == pid and not c.deleted]

    def find_command(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        """A synced top-level command by name (guild commands shadow global ones)."""
        for cmd in [*self.guild_commands.get(guild_id or 0, []), *self.global_commands]:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        return None

    # ------------------------------------------------------------------ internals

    def touch(self, interaction: Interaction) -> None:
        """Note activity on an interaction (for settling)."""
        interaction.last_activity = time.monotonic()
        interaction.activity += 1
        self._changed()

    def new_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        """Store a new message in `channel` (no validation, no event)."""
        msg = Message(
            id=fields.pop("id", None) or self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            timestamp=self.clock.iso(),
            base_url=self.url,
            **fields,
        )
        self.messages_by_id[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg.id)
        if channel.is_thread:
            channel.message_count += 1
        return msg

    def notify(self, msg: Message, users: list[int]) -> None:
        """Record the notifications of a newly created message (only users who see it)."""
        for user_id in users:
            user = self.users.get(user_id)
            if user is None or user_id == msg.author.id:
                continue
            if msg.guild_id is not None and not self.can_view_channel(user, msg.channel_id):
                continue
            self.notifications.append(
                Notification(user_id, msg.id, msg.channel_id, self.clock.now())
            )

    def note_upload(self, msg: Message, files: list[Any]) -> None:
        """Count the bytes of ``files`` uploaded with a create or an edit of ``msg``."""
        if files:
            self.upload_log.append((msg.channel_id, msg.id, sum(len(f.data) for f in files)))

    def pings(self, user: Any = None, channel: Any = None) -> list[Notification]:
        """The notifications sent, to ``user`` and in ``channel`` (its threads included)."""
        found = self.notifications
        if user is not None:
            found = [n for n in found if n.user_id == user.id]
        if channel is not None:
            ids = {channel.id} | {t.id for t in self.threads(channel)}
            found = [n for n in found if n.channel_id in ids]
        return found

    def nonced_message(self, author: User, nonce: str) -> Message | None:
        """The message ``author`` created with ``nonce`` (enforced) within `nonce_window`."""
        found = self.nonces.get((author.id, nonce))
        if found is None or self.clock.now() - found[0] > self.nonce_window:
            return None
        return self.messages_by_id.get(found[1])

    def remember_nonce(self, author: User, nonce: str, msg: Message) -> None:
        """Note a create that enforced its nonce (see :meth:`nonced_message`)."""
        self.nonces[(author.id, nonce)] = (self.clock.now(), msg.id)

    def announce_message(self, msg: Message, event: str = "MESSAGE_CREATE") -> None:
        """Send MESSAGE_CREATE/UPDATE for public messages (ephemeral ones are never dispatched)."""
        if msg.flags & FLAG_EPHEMERAL:
            self._changed()
            return
        data = msg.payload()
        if msg.guild_id is not None and msg.guild_id in self.guilds:
            guild = self.guilds[msg.guild_id]
            if msg.author.id in guild.members:
                data["member"] = guild.members[msg.author.id].payload(with_user=False)
        self._emit(event, data, msg.guild_id)

    async def _serve_file(self, request: web.Request) -> web.Response:
        file_id = int(request.match_info["file"])
        if file_id in self.uploads:
            f = self.uploads[file_id]
            return web.Response(body=f.data, content_type=f.content_type.split(";")[0])
        for msg in self.messages_by_id.values():
            for f in msg.files:
                if f.id == file_id:
                    return web.Response(body=f.data, content_type=f.content_type.split(";")[0])
        return web.Response(status=404)

    async def _dispatch_rest(self, request: web.Request) -> web.StreamResponse:
        return await rest.handle(self, request)
