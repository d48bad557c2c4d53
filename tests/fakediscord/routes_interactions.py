"""REST handlers: interaction callbacks and interaction webhooks (follow-ups, @original)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    Interaction,
    Message,
)
from tests.fakediscord.rest import (
    FormErrors,
    Req,
    create_message_from,
    delete_message_record,
    edit_message_with,
    interaction_fields,
    route,
)
from tests.fakediscord.validation import (
    DiscordError,
    unknown,
    validate_choices,
    validate_modal,
)

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


# ====================================================================== interactions


ALLOWED_CALLBACKS = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7, 12}}
#: LAUNCH_ACTIVITY: "Launch the Activity associated with the app. Only available for apps
#: with Activities enabled."
LAUNCH_ACTIVITY = 12


@route("POST", "/interactions/{interaction}/{token}/callback", auth=False)
async def interaction_callback(fake: FakeDiscord, req: Req) -> Any:
    inter = fake.interactions.get(req.int_arg("interaction"))
    if inter is None or inter.token != req.args["token"]:
        raise unknown("interaction", 10062)
    if fake.clock.now() - inter.created_at > fake.response_window:
        raise unknown("interaction", 10062)
    if inter.acknowledged:
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    payload = req.payload or {}
    rtype = payload.get("type")
    data = payload.get("data") or {}
    allowed = set(ALLOWED_CALLBACKS[inter.type])
    if inter.source_message_id is None:
        allowed -= {6, 7}
    if rtype not in allowed:
        errors = FormErrors()
        errors.add(
            ("type",),
            "INTERACTION_CALLBACK_TYPE_INVALID",
            f"Callback type {rtype} is not valid for this interaction",
        )
        errors.raise_if_any()
    msg: Message | None = None
    channel = fake.channels[inter.channel_id]
    if rtype == 4:
        msg = create_message_from(
            fake,
            channel,
            data,
            req.uploads,
            interaction=inter,
            ephemeral=bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL),
        )
        inter.original_id = msg.id
        inter.message_ids.append(msg.id)
    elif rtype == 5:
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        inter.deferred_ephemeral = ephemeral
        extra = interaction_fields(fake, inter)
        msg = fake.new_message(
            channel,
            fake.bot_user,
            flags=FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0),
            visible_to=frozenset({inter.user.id}) if ephemeral else None,
            **extra,
        )
        fake.announce_message(msg)
        inter.original_id = msg.id
        inter.message_ids.append(msg.id)
    elif rtype in (6, 7):
        source = fake.messages_by_id[inter.source_message_id]  # type: ignore[index]
        if source.deleted:
            raise unknown("Message", 10008)
        if rtype == 7:
            msg = edit_message_with(fake, source, data, req.uploads)
        inter.original_id = source.id
    elif rtype == LAUNCH_ACTIVITY:
        if not fake.activities_enabled:
            raise DiscordError(400, 50035, "Invalid Form Body: Activities are not enabled")
        if channel.type in (10, 11, 12) and not fake.activity_in_threads:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        fake.launched.append(inter)
    elif rtype == 8:
        validate_choices({"data": data})
    elif rtype == 9:
        validate_modal(data)
    inter.response_type, inter.response_data = rtype, data
    fake.touch(inter)
    if req.query.get("with_response", "").lower() not in ("1", "true"):
        return None
    result: dict[str, Any] = {"interaction": {"id": str(inter.id), "type": inter.type}}
    if msg is not None:
        result["interaction"].update(
            {
                "response_message_id": str(msg.id),
                "response_message_loading": msg.loading,
                "response_message_ephemeral": msg.ephemeral,
            }
        )
        result["resource"] = {"type": rtype, "message": msg.payload()}
    else:
        result["resource"] = {"type": rtype}
    return result


def _webhook_interaction(fake: FakeDiscord, req: Req) -> Interaction:
    inter = fake.interactions_by_token.get(req.args["token"])
    if inter is None or req.args["app"] != str(fake.application_id):
        raise unknown("Webhook", 10015)
    if fake.clock.now() - inter.created_at > fake.token_lifetime:
        raise DiscordError(401, 50027, "Invalid Webhook Token")
    if not inter.acknowledged:
        raise unknown("Webhook", 10015)
    return inter


def _webhook_message(fake: FakeDiscord, inter: Interaction, req: Req) -> Message:
    ref = req.args["message"]
    mid = inter.original_id if ref == "@original" else (int(ref) if ref.isdigit() else None)
    allowed = set(inter.message_ids) | ({inter.original_id} if inter.original_id else set())
    msg = fake.messages_by_id.get(mid) if mid in allowed else None  # type: ignore[arg-type]
    if msg is None or msg.deleted:
        raise unknown("Message", 10008)
    return msg


def _wants_wait(req: Req) -> bool:
    return req.query.get("wait", "").lower() in ("1", "true")


@route("POST", "/webhooks/{app}/{token}", auth=False)
async def create_followup(fake: FakeDiscord, req: Req) -> Any:
    inter = _webhook_interaction(fake, req)
    payload = req.payload or {}
    original = fake.messages_by_id.get(inter.original_id or 0)
    if inter.response_type == 5 and original is not None and original.loading:
        # Discord's trap: the first follow-up after a deferral fills the "thinking" message and
        # keeps its visibility — a public deferral stays public even if the follow-up asks for
        # ephemeral.
        kept_flags = {k: v for k, v in payload.items() if k != "flags"}
        kept_flags["flags"] = int(payload.get("flags") or 0) & ~FLAG_EPHEMERAL
        msg = edit_message_with(fake, original, kept_flags, req.uploads)
    else:
        channel = fake.channels[inter.channel_id]
        ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
        msg = create_message_from(
            fake, channel, payload, req.uploads, interaction=inter, ephemeral=ephemeral
        )
        inter.message_ids.append(msg.id)
    fake.touch(inter)
    return msg.payload() if _wants_wait(req) else None


@route("GET", "/webhooks/{app}/{token}/messages/{message}", auth=False)
async def get_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    inter = _webhook_interaction(fake, req)
    return _webhook_message(fake, inter, req).payload()


@route("PATCH", "/webhooks/{app}/{token}/messages/{message}", auth=False)
async def edit_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    inter = _webhook_interaction(fake, req)
    msg = _webhook_message(fake, inter, req)
    edit_message_with(fake, msg, req.payload or {}, req.uploads)
    fake.touch(inter)
    return msg.payload()


@route("DELETE", "/webhooks/{app}/{token}/messages/{message}", auth=False)
async def delete_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    inter = _webhook_interaction(fake, req)
    msg = _webhook_message(fake, inter, req)
    delete_message_record(fake, msg)
    fake.touch(inter)
    return None
