"""REST handlers: users, application, gateway, application commands, guilds and DMs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.models import (
    DM,
    Channel,
)
from tests.fakediscord.rest import (
    FormErrors,
    Req,
    route,
    thread_member_payload,
)
from tests.fakediscord.validation import (
    DiscordError,
    unknown,
    validate_command,
)

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


# ====================================================================== meta


@route("GET", "/users/@me", auth=False)
async def get_me(fake: FakeDiscord, req: Req) -> Any:
    # The bot's token asks for the bot; a user's OAuth2 Bearer token for that user (with
    # the locale the identify scope includes).
    if req.authorization == f"Bot {fake.token}":
        return fake.bot_user.payload()
    user = fake.oauth_user(req.authorization, "identify")
    return {**user.payload(), "locale": user.locale}


@route("GET", "/users/{user}")
async def get_user(fake: FakeDiscord, req: Req) -> Any:
    user = fake.users.get(req.int_arg("user"))
    if user is None:
        raise unknown("User", 10013)
    return user.payload()


@route("GET", "/oauth2/applications/@me")
@route("GET", "/applications/@me")
async def get_application(fake: FakeDiscord, req: Req) -> Any:
    return {
        "id": str(fake.application_id),
        "name": fake.bot_user.name,
        "icon": None,
        "description": "",
        "summary": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
        "verify_key": "0" * 64,
        "team": None,
        "flags": 0,
        "bot": fake.bot_user.payload(),
    }


@route("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, req: Req) -> Any:
    return {
        "url": fake.ws_url,
        "shards": fake.recommended_shards,
        "session_start_limit": {
            "total": 1000,
            "remaining": 999,
            "reset_after": 0,
            "max_concurrency": 16,
        },
    }


@route("GET", "/gateway", auth=False)
async def get_gateway(fake: FakeDiscord, req: Req) -> Any:
    return {"url": fake.ws_url}


# ====================================================================== application commands


def _command_list(fake: FakeDiscord, req: Req) -> list[dict[str, Any]]:
    if req.int_arg("app") != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")
    if "guild" in req.args:
        gid = req.int_arg("guild")
        if gid not in fake.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return fake.guild_commands.setdefault(gid, [])
    return fake.global_commands


def _stored_command(
    fake: FakeDiscord, req: Req, body: dict[str, Any], old: dict[str, Any] | None
) -> dict[str, Any]:
    errors = validate_command(body)
    errors.raise_if_any()
    cmd = dict(body)
    cmd["id"] = old["id"] if old else str(fake.ids.next())
    cmd["application_id"] = str(fake.application_id)
    cmd["version"] = str(fake.ids.next())
    cmd.setdefault("type", 1)
    cmd.setdefault("description", "")
    cmd.setdefault("default_member_permissions", None)
    cmd.setdefault("nsfw", False)
    if "guild" in req.args:
        cmd["guild_id"] = req.args["guild"]
    return cmd


@route("GET", "/applications/{app}/commands")
@route("GET", "/applications/{app}/guilds/{guild}/commands")
async def list_commands(fake: FakeDiscord, req: Req) -> Any:
    return _command_list(fake, req)


@route("PUT", "/applications/{app}/commands")
@route("PUT", "/applications/{app}/guilds/{guild}/commands")
async def bulk_overwrite_commands(fake: FakeDiscord, req: Req) -> Any:
    current = _command_list(fake, req)
    body = req.payload or []
    errors = FormErrors()
    if len([c for c in body if c.get("type", 1) == 1]) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    keys = [(c.get("type", 1), c.get("name")) for c in body]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        sub = validate_command(body[i], (i,))
        for k, v in sub.errors.items():
            errors.errors.setdefault(k, {}).update(v)
    errors.raise_if_any()
    # Activities enabled: the Entry Point command must be in a global bulk overwrite.
    entry_point = "guild" not in req.args and any(c.get("type") == 4 for c in current)
    if entry_point and not any(c.get("type") == 4 for c in body):
        raise DiscordError(
            400,
            50240,
            "You cannot remove this app's Entry Point command in a bulk update operation. "
            "Please include the Entry Point command in your update request or delete it "
            "separately.",
        )
    by_name = {(c.get("type", 1), c["name"]): c for c in current}
    new = [_stored_command(fake, req, c, by_name.get((c.get("type", 1), c["name"]))) for c in body]
    current[:] = new
    return new


@route("POST", "/applications/{app}/commands")
@route("POST", "/applications/{app}/guilds/{guild}/commands")
async def create_command(fake: FakeDiscord, req: Req) -> Any:
    current = _command_list(fake, req)
    old = next((c for c in current if c["name"] == req.payload.get("name")), None)
    cmd = _stored_command(fake, req, req.payload, old)
    if old is not None:
        current[current.index(old)] = cmd
    else:
        current.append(cmd)
    return cmd


def _find_command(fake: FakeDiscord, req: Req) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    current = _command_list(fake, req)
    for cmd in current:
        if cmd["id"] == req.args["command"]:
            return current, cmd
    raise unknown("application command", 10063)


@route("GET", "/applications/{app}/commands/{command}")
@route("GET", "/applications/{app}/guilds/{guild}/commands/{command}")
async def get_command(fake: FakeDiscord, req: Req) -> Any:
    return _find_command(fake, req)[1]


@route("PATCH", "/applications/{app}/commands/{command}")
@route("PATCH", "/applications/{app}/guilds/{guild}/commands/{command}")
async def edit_command(fake: FakeDiscord, req: Req) -> Any:
    current, cmd = _find_command(fake, req)
    new = _stored_command(fake, req, {**cmd, **req.payload}, cmd)
    current[current.index(cmd)] = new
    return new


@route("DELETE", "/applications/{app}/commands/{command}")
@route("DELETE", "/applications/{app}/guilds/{guild}/commands/{command}")
async def delete_command(fake: FakeDiscord, req: Req) -> Any:
    current, cmd = _find_command(fake, req)
    current.remove(cmd)
    return None


# ====================================================================== guilds & DMs


def _guild(fake: FakeDiscord, req: Req) -> Any:
    guild = fake.guilds.get(req.int_arg("guild"))
    if guild is None:
        raise unknown("Guild", 10004)
    return guild


@route("GET", "/guilds/{guild}")
async def get_guild(fake: FakeDiscord, req: Req) -> Any:
    return fake.guild_create_payload(_guild(fake, req))


@route("GET", "/guilds/{guild}/channels")
async def get_guild_channels(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    chans = [fake.channels[c] for c in guild.channel_ids]
    return [c.payload() for c in chans if not c.is_thread and not c.deleted]


@route("GET", "/guilds/{guild}/threads/active")
async def get_active_threads(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    threads = [fake.channels[c] for c in guild.channel_ids]
    threads = [t for t in threads if t.is_thread and not t.deleted and not t.archived]
    members = [
        thread_member_payload(t, fake.bot_user.id, fake)
        for t in threads
        if fake.bot_user.id in t.member_ids
    ]
    return {"threads": [t.payload() for t in threads], "members": members}


@route("GET", "/guilds/{guild}/members/{user}")
async def get_member(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    uid = req.int_arg("user")
    if uid not in guild.members:
        raise unknown("Member", 10007)
    return guild.members[uid].payload()


@route("POST", "/users/@me/channels")
async def create_dm(fake: FakeDiscord, req: Req) -> Any:
    uid = int((req.payload or {}).get("recipient_id", 0))
    if uid not in fake.users:
        raise unknown("User", 10013)
    for chan in fake.channels.values():
        if chan.type == DM and chan.recipient_id == uid:
            return chan.payload(fake.users)
    chan = Channel(fake.ids.next(), DM, "", None, recipient_id=uid, created_at=fake.clock.iso())
    fake.channels[chan.id] = chan
    return chan.payload(fake.users)
