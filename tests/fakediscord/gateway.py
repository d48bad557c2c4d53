"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY, RESUME, RECONNECT and event dispatch.

Sessions outlive their websocket: events dispatched while a shard is disconnected are buffered
and replayed on RESUME, like Discord does. Events for a guild go to the shard
`(guild_id >> 22) % shard_count` (https://discord.com/developers/docs/topics/gateway#sharding).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

# Intents.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

#: Which intent an event needs (events not listed, e.g. INTERACTION_CREATE, need none).
EVENT_INTENTS = {
    "GUILD_CREATE": INTENT_GUILDS,
    "GUILD_UPDATE": INTENT_GUILDS,
    "GUILD_DELETE": INTENT_GUILDS,
    "CHANNEL_CREATE": INTENT_GUILDS,
    "CHANNEL_UPDATE": INTENT_GUILDS,
    "CHANNEL_DELETE": INTENT_GUILDS,
    "THREAD_CREATE": INTENT_GUILDS,
    "THREAD_UPDATE": INTENT_GUILDS,
    "THREAD_DELETE": INTENT_GUILDS,
    "THREAD_MEMBER_UPDATE": INTENT_GUILDS,
    "THREAD_MEMBERS_UPDATE": INTENT_GUILDS,
    "MESSAGE_CREATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_UPDATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_DELETE": INTENT_GUILD_MESSAGES,
}
HEARTBEAT_INTERVAL_MS = 41250


@dataclass
class Session:
    """A gateway session of one shard; survives disconnects until invalidated."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    backlog: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    valid: bool = True

    @property
    def connected(self) -> bool:
        """Whether a websocket is currently attached."""
        return self.ws is not None and not self.ws.closed

    def handles_guild(self, guild_id: int | None) -> bool:
        """Whether events of `guild_id` go to this shard (DMs go to shard 0)."""
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

    async def send_raw(self, payload: dict[str, Any]) -> None:
        """Send one frame if connected (sends are serialised: frames must not interleave)."""
        async with self.lock:
            if self.ws is not None and not self.ws.closed:
                try:
                    await self.ws.send_str(json.dumps(payload))
                except ConnectionError:
                    self.ws = None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH with the next sequence number, keeping it for RESUME."""
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.backlog.append(frame)
        del self.backlog[:-2000]  # Discord keeps a bounded replay buffer too
        await self.send_raw(frame)


def guild_less(data: dict[str, Any]) -> bool:
    """Whether a message event is from a DM (DMs keep their content without the intent)."""
    return "guild_id" not in data


class Gateway:
    """Websocket endpoint plus the registry of sessions."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.log: list[tuple[str, int | None]] = []  # ("IDENTIFY"/"RESUME"/..., shard id)

    def live_sessions(self) -> list[Session]:
        """Valid sessions (connected or waiting for a RESUME)."""
        return [s for s in self.sessions.values() if s.valid]

    async def dispatch(
        self, event: str, data: dict[str, Any], guild_id: int | None, *, intents: int | None = None
    ) -> None:
        """Send an event to every session whose shard handles `guild_id` and wants it."""
        needed = EVENT_INTENTS.get(event, 0) if intents is None else intents
        if event == "MESSAGE_CREATE" and guild_id is None:
            needed = INTENT_DIRECT_MESSAGES
        for session in self.live_sessions():
            if session.handles_guild(guild_id) and (session.intents & needed) == needed:
                await session.dispatch(event, self._redact(session, event, data))

    def _redact(self, session: Session, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Without the MESSAGE_CONTENT intent, others' messages arrive without their content."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or guild_less(data):
            return data
        if session.intents & INTENT_MESSAGE_CONTENT:
            return data
        bot_id = str(self.fake.bot_user.id)
        if data.get("author", {}).get("id") == bot_id:
            return data
        if any(m.get("id") == bot_id for m in data.get("mentions", [])):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection: HELLO, then react to the client's opcodes until closed."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.fake._websockets.add(ws)
        await ws.send_str(
            json.dumps({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        )
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                # PRESENCE, VOICE and REQUEST_MEMBERS are accepted and ignored.
        finally:
            self.fake._websockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            self.fake._changed()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard_id, shard_count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        session = Session(uuid.uuid4().hex, shard_id, shard_count, intents, ws=ws)
        self.sessions[session.id] = session
        self.log.append(("IDENTIFY", shard_id))
        guilds = [g for g in self.fake.guilds.values() if session.handles_guild(g.id)]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.fake.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.fake.ws_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", self.fake.guild_create_payload(guild))
        self.fake._changed()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not session.valid or data.get("token") != self.fake.token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        if session.ws is not None and session.ws is not ws and not session.ws.closed:
            await session.ws.close(code=4000)
        session.ws = ws
        self.log.append(("RESUME", session.shard_id))
        seq = data.get("seq") or 0
        for frame in [f for f in session.backlog if f["s"] > seq]:
            await session.send_raw(frame)
        await session.dispatch("RESUMED", {})
        self.fake._changed()
        return session

    async def reconnect(self, shard_id: int | None = None) -> None:
        """Ask connected shards (all, or one) to reconnect and RESUME (opcode 7)."""
        for session in self.live_sessions():
            if session.connected and shard_id in (None, session.shard_id):
                await session.send_raw({"op": RECONNECT, "d": None})

    async def invalidate(self, shard_id: int | None = None) -> None:
        """Invalidate sessions (opcode 9, not resumable): the client must IDENTIFY again."""
        for session in self.live_sessions():
            if shard_id in (None, session.shard_id):
                session.valid = False
                await session.send_raw({"op": INVALID_SESSION, "d": False})
