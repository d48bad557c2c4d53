"""REST API of the fake Discord: routing, body parsing and the shared message logic.

The handlers live in `routes_meta`, `routes_interactions` and `routes_channels`, which
register themselves with `route` when imported (the server imports them).

Every request is recorded in `fake.requests`; routes the fake does not know answer 404 with
Discord's shape and are recorded in `fake.unknown_routes` so tests can assert none were hit.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.faults import Fault
from tests.fakediscord.models import (
    ATTACH_FILES,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Channel,
    Interaction,
    Message,
    StoredFile,
    content_type_of,
)
from tests.fakediscord.notifications import pinged_users
from tests.fakediscord.ratelimits import retry_header, too_many
from tests.fakediscord.validation import (
    DiscordError,
    FormErrors,
    unknown,
    validate_message,
    walk_components,
)

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


@dataclass
class Upload:
    """A file part of a multipart request (`files[n]`)."""

    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Req:
    """A parsed request handed to a route handler."""

    method: str
    path: str
    args: dict[str, str]
    query: dict[str, str]
    payload: Any
    uploads: list[Upload] = field(default_factory=list)
    #: The ``Authorization`` header (OAuth2 routes tell a user's Bearer token from the bot's).
    authorization: str = ""

    def int_arg(self, name: str) -> int:
        """A path parameter as a snowflake (Discord answers 404 for malformed ids)."""
        try:
            return int(self.args[name])
        except ValueError:
            raise DiscordError(404, 0, "404: Not Found") from None


log = logging.getLogger(__name__)

Handler = Callable[["FakeDiscord", Req], Awaitable[Any]]
ROUTES: list[tuple[str, re.Pattern[str], Handler, bool]] = []


def route(method: str, pattern: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
    """Register a handler for `method` and a path pattern with `{name}` segments."""
    regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")

    def register(handler: Handler) -> Handler:
        ROUTES.append((method, regex, handler, auth))
        return handler

    return register


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON response with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


async def handle(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    """Entry point for every `/api/v{n}/...` request."""
    from tests.fakediscord.server import RequestRecord

    path = "/" + request.match_info["tail"]
    method = request.method
    # Read first: a fault may depend on what is asked (Fault.only).
    body: tuple[Any, list[Upload]] | None = None
    unreadable: Exception | None = None
    try:
        body = await _parse_body(request)
    except Exception as error:  # raised again below, where a fake's failure is answered
        unreadable = error
    fault = fake.faults.take(method, path, body[0] if body is not None else None)
    if fault is not None:
        fake.requests.append(RequestRecord(method, path, fault.status))
        if fault.hold is not None:
            await fault.hold.wait()
        return _fault_response(fault)
    for m, regex, handler, auth in ROUTES:
        match = regex.match(path)
        if match is None or m != method:
            continue
        limits, wait = fake.rate_limits.check(method, path, fake.clock.now())
        if wait > 0:
            fake.requests.append(RequestRecord(method, path, 429))
            is_global = limits.get("X-RateLimit-Global") == "true"
            limits["Retry-After"] = retry_header(wait)
            return json_response(too_many(wait, is_global), status=429, headers=limits)
        record = RequestRecord(method, path, 200)
        fake.requests.append(record)
        try:
            if auth and request.headers.get("Authorization") != f"Bot {fake.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
            if body is None:
                assert unreadable is not None
                raise unreadable
            payload, uploads = body
            record.body = payload
            req = Req(
                method,
                path,
                match.groupdict(),
                dict(request.query),
                payload,
                uploads,
                request.headers.get("Authorization", ""),
            )
            result = await handler(fake, req)
        except DiscordError as err:
            record.status, record.error = err.status, err
            _note_interaction_error(fake, path, err)
            fake._changed()
            return json_response(err.body(), status=err.status)
        except Exception as exc:
            # A bug in the fake: answer 400 (a 500 would make discord.py retry for seconds)
            # and keep the traceback for the test report.
            log.exception("fake Discord failed on %s %s", method, path)
            fake.internal_errors.append(f"{method} {path}: {exc!r}")
            record.status = 400
            body = {"code": 0, "message": f"FAKE DISCORD BUG on {method} {path}: {exc!r}"}
            return json_response(body, status=400)
        fake._changed()
        stall = fake.faults.take_stall(method, path, payload)
        if stall is not None:
            await stall.wait()  # done, but the answer is late (the bot may die meanwhile)
        late = fake.faults.take_after_effect(method, path)
        if late is not None:  # done, but the answer is a server error
            record.status = late.status
            return _fault_response(late)
        if result is None:
            record.status = 204
            return web.Response(status=204, headers=limits)
        return json_response(result, headers=limits)
    fake.unknown_routes.append((method, path))
    fake.requests.append(RequestRecord(method, path, 404))
    return json_response({"message": "404: Not Found", "code": 0}, status=404)


def _fault_response(fault: Fault) -> web.Response:
    """The canned answer of an injected fault."""
    if isinstance(fault.body, str):
        return web.Response(
            status=fault.status, text=fault.body, headers=fault.headers, content_type="text/html"
        )
    return json_response(fault.body, status=fault.status, headers=fault.headers)


def _note_interaction_error(fake: FakeDiscord, path: str, err: DiscordError) -> None:
    """Attach an error to the interaction whose token the path carries (for test reports)."""
    for inter in fake.interactions.values():
        if inter.token in path:
            inter.errors.append(err.body() | {"status": err.status, "path": path})


async def _parse_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart `payload_json` + `files[n]` parts."""
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            name = part.name or ""  # type: ignore[union-attr]
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(data)
            elif m := re.fullmatch(r"files\[(\d+)\]", name):
                filename = part.filename or f"file{m.group(1)}"  # type: ignore[union-attr]
                ctype = part.headers.get("Content-Type") or content_type_of(filename)  # type: ignore[union-attr]
                if ctype == "application/octet-stream":
                    ctype = content_type_of(filename)
                uploads.append(Upload(int(m.group(1)), filename, bytes(data), ctype))
        return payload, uploads
    if request.content_type == "application/x-www-form-urlencoded":
        # OAuth2's token endpoint takes a form, as RFC 6749 says.
        return dict(await request.post()), []
    if request.can_read_body:
        text = await request.text()
        if text:
            try:
                return json.loads(text), []
            except json.JSONDecodeError:
                raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
    return None, []


# ====================================================================== helpers


def store_uploads(
    fake: FakeDiscord, payload: dict[str, Any], uploads: list[Upload]
) -> list[StoredFile]:
    """Turn uploaded parts into stored files, honouring `attachments` descriptions."""
    described = {
        str(a.get("id")): a for a in payload.get("attachments") or [] if isinstance(a, dict)
    }
    files = []
    for up in sorted(uploads, key=lambda u: u.index):
        meta = described.get(str(up.index), {})
        files.append(
            StoredFile(
                fake.ids.next(),
                meta.get("filename") or up.filename,
                up.data,
                up.content_type,
                meta.get("description"),
            )
        )
    return files


def _check_v2_media_edit(
    fake: FakeDiscord, components: list[dict[str, Any]], new: list[StoredFile]
) -> None:
    """discord-api-docs#7529: an edit whose media gallery shows a newly uploaded file fails."""
    if not fake.fail_v2_edits_with_new_media or not new:
        return
    names = {f.filename for f in new}
    errors = FormErrors()
    for path, comp in walk_components(components, ("components",)):
        if comp.get("type") != 12:
            continue
        for i, item in enumerate(comp.get("items", [])):
            url = str(item.get("media", {}).get("url", ""))
            if url.removeprefix("attachment://") in names:
                errors.add(
                    (*path, "items", i, "media", "url"),
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    "Unfurled media item attachment not found.",
                )
    errors.raise_if_any()


def create_message_from(
    fake: FakeDiscord,
    channel: Channel,
    payload: dict[str, Any],
    uploads: list[Upload],
    *,
    interaction: Interaction | None = None,
    ephemeral: bool = False,
) -> Message:
    """Validate and store a new message sent by the bot (channel message or interaction reply)."""
    validate_message(payload, n_files=len(uploads))
    flags = int(payload.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2 | (1 << 12))
    extra: dict[str, Any] = {}
    if interaction is not None:
        if ephemeral:
            flags |= FLAG_EPHEMERAL
            extra["visible_to"] = frozenset({interaction.user.id})
        extra.update(interaction_fields(fake, interaction))
    reference = payload.get("message_reference")
    if reference:
        ref_id = int(reference["message_id"])
        if ref_id not in fake.messages_by_id and reference.get("fail_if_not_exists", True):
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "message_reference": {
                        "_errors": [
                            {
                                "code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                "message": "Unknown message",
                            }
                        ]
                    }
                },
            )
        extra["message_reference"] = {
            "type": 0,
            "message_id": str(ref_id),
            "channel_id": str(channel.id),
            **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
        }
        extra["type"] = 19
    msg = fake.new_message(
        channel,
        fake.bot_user,
        content=payload.get("content") or "",
        embeds=list(payload.get("embeds") or []),
        components=list(payload.get("components") or []),
        files=store_uploads(fake, payload, uploads),
        flags=flags,
        **extra,
    )
    if not ephemeral:
        fake.notify(msg, pinged_users(payload, flags))
    fake.note_upload(msg, msg.files)
    fake.announce_message(msg)
    return msg


def interaction_fields(fake: FakeDiscord, inter: Interaction) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "id": str(inter.id),
        "type": inter.type,
        "user": inter.user.payload(),
        "authorizing_integration_owners": {"0": str(inter.guild_id or 0)},
    }
    if inter.type == 2:
        meta["name"] = inter.payload["data"]["name"]
    if inter.source_message_id is not None:
        meta["interacted_message_id"] = str(inter.source_message_id)
    return {
        "webhook_id": fake.application_id,
        "application_id": fake.application_id,
        "interaction_metadata": meta,
        "type": 20 if inter.type == 2 else 0,
    }


def edit_message_with(
    fake: FakeDiscord,
    msg: Message,
    payload: dict[str, Any],
    uploads: list[Upload],
) -> Message:
    """Validate and apply an edit (channel PATCH, webhook PATCH, callback 7, deferred fill)."""
    payload = payload or {}
    content = (payload.get("content") or "") if "content" in payload else msg.content
    embeds = list(payload.get("embeds") or []) if "embeds" in payload else msg.embeds
    components = (
        list(payload.get("components") or []) if "components" in payload else msg.components
    )
    flags = msg.flags & ~FLAG_LOADING
    if "flags" in payload and payload["flags"] is not None:
        asked = int(payload["flags"])
        if msg.flags & FLAG_COMPONENTS_V2 and not asked & FLAG_COMPONENTS_V2:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "flags": {
                        "_errors": [
                            {
                                "code": "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                                "message": "The IS_COMPONENTS_V2 flag cannot be removed.",
                            }
                        ]
                    }
                },
            )
        flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (
            asked & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
        )
    if "attachments" in payload and payload["attachments"] is not None:
        keep_ids = {str(a.get("id")) for a in payload["attachments"] if isinstance(a, dict)}
        kept = [f for f in msg.files if str(f.id) in keep_ids]
    else:
        kept = list(msg.files)
    new = store_uploads(fake, payload, uploads)
    merged = {"content": content, "embeds": embeds, "components": components, "flags": flags}
    validate_message(merged, n_files=len(kept) + len(new))
    if flags & FLAG_COMPONENTS_V2:
        _check_v2_media_edit(fake, components, new)
    was_loading = msg.loading
    msg.content, msg.embeds, msg.components, msg.flags = content, embeds, components, flags
    msg.files = kept + new
    fake.note_upload(msg, new)
    if not was_loading:
        msg.edited_timestamp = fake.clock.iso()
    fake.announce_message(msg, "MESSAGE_UPDATE")
    return msg


def channel_or_404(fake: FakeDiscord, req: Req, name: str = "channel") -> Channel:
    chan = fake.channels.get(req.int_arg(name))
    if chan is None or chan.deleted:
        raise unknown("Channel", 10003)
    return chan


def bot_permissions(fake: FakeDiscord, chan: Channel) -> int:
    if chan.guild_id is None:
        return VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES
    return fake.guilds[chan.guild_id].permissions_of(fake.bot_user.id)


def require_permissions(fake: FakeDiscord, chan: Channel, perms: int) -> None:
    if bot_permissions(fake, chan) & perms != perms:
        raise DiscordError(403, 50013, "Missing Permissions")


def channel_message_or_404(fake: FakeDiscord, chan: Channel, req: Req) -> Message:
    msg = fake.messages_by_id.get(req.int_arg("message"))
    # Ephemeral messages exist only for their viewer: the channel endpoints never see them.
    if msg is None or msg.deleted or msg.channel_id != chan.id or msg.ephemeral:
        raise unknown("Message", 10008)
    return msg


def delete_message_record(fake: FakeDiscord, msg: Message) -> None:
    msg.deleted = True
    if not msg.ephemeral:
        data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        fake._emit("MESSAGE_DELETE", data, msg.guild_id)


def thread_member_payload(thread: Channel, user_id: int, fake: FakeDiscord) -> dict[str, Any]:
    return {
        "id": str(thread.id),
        "user_id": str(user_id),
        "join_timestamp": fake.clock.iso(),
        "flags": 0,
    }
