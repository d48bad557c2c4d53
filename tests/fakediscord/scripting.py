"""Scripted users: humans that run slash commands, click buttons, pick options and fill modals.

Each action sends an INTERACTION_CREATE to the bot and (by default) waits until the bot's answer
settled, returning an `InteractionResult` to assert on. What a user could not do in the real
Discord client (click a disabled button, run an unsynced command, omit a required option, see
someone else's ephemeral message) raises `ScriptError` instead of reaching the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import TYPE_CHECKING, Any

from tests.fakediscord.models import (
    FLAG_EPHEMERAL,
    Channel,
    Interaction,
    Message,
    Role,
    StoredFile,
    User,
    content_type_of,
    iter_components,
)

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

OPTION_TYPES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    10: "number",
}


class ScriptError(Exception):
    """The scripted user tried something the Discord client would not let them do."""


class InteractionResult:
    """What the bot did in answer to one interaction (live view: it updates as the bot acts)."""

    def __init__(self, fake: FakeDiscord, interaction: Interaction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.response_type} messages={len(self.messages)} "
            f"errors={self.errors}>"
        )

    @property
    def response_type(self) -> int | None:
        """Callback type of the initial response (4 message, 5/6 deferred, 7 update, 8, 9)."""
        return self.interaction.response_type

    @property
    def acknowledged(self) -> bool:
        """Whether the bot answered at all."""
        return self.interaction.acknowledged

    @property
    def deferred(self) -> bool:
        """Whether the initial response was a deferral (5 or 6)."""
        return self.response_type in (5, 6)

    @property
    def message(self) -> Message:
        """The original response message (for 6/7: the message the component belongs to).

        Raises LookupError when there is none (no answer yet, a modal, autocomplete).
        """
        mid = self.interaction.original_id
        if not mid:
            raise LookupError(
                f"no response message (response type {self.response_type}, errors {self.errors})"
            )
        return self.fake.messages_by_id[mid]

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is visible to the interaction's user only."""
        return bool(self.interaction.original_id) and self.message.ephemeral

    @property
    def messages(self) -> list[Message]:
        """Messages this interaction produced (original response first), deleted ones excluded."""
        msgs = [self.fake.messages_by_id[m] for m in self.interaction.message_ids]
        return [m for m in msgs if not m.deleted]

    @property
    def followups(self) -> list[Message]:
        """Messages produced besides the original response."""
        return [m for m in self.messages if m.id != self.interaction.original_id]

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback 9), as sent."""
        return self.interaction.response_data if self.response_type == 9 else None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback 8)."""
        if self.response_type != 8:
            return []
        return list((self.interaction.response_data or {}).get("choices") or [])

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Discord errors the bot got on this interaction's routes (e.g. code 40060)."""
        return self.interaction.errors

    @property
    def text(self) -> str:
        """All text of the messages produced, joined."""
        return "\n".join(m.text for m in self.messages)

    async def wait_for_messages(self, count: int, timeout: float = 5.0) -> list[Message]:  # noqa: ASYNC109
        """Wait until this interaction produced at least `count` messages (slow follow-ups)."""
        await self.fake.wait_for(
            lambda: len(self.messages) >= count,
            timeout=timeout,
            what=f"(interaction {self.interaction.id} produced {len(self.messages)} messages)",
        )
        return self.messages

    def visible_to(self, user: ScriptedUser | User) -> list[Message]:
        """The produced messages that `user` can see."""
        return [m for m in self.messages if m.visible_for(user.id)]

    async def settled(self, timeout: float = 5.0) -> InteractionResult:  # noqa: ASYNC109
        """Wait until the bot answered, any deferral was filled, and it went quiet.

        After a deferred update (6), waits for the bot's next edit or follow-up.
        """
        inter = self.interaction
        await self.fake.wait_for(
            lambda: inter.acknowledged or inter.errors,
            timeout=timeout,
            what=f"(no answer to interaction {inter.id}; errors: {inter.errors})",
        )
        if inter.response_type == 5:
            await self.fake.wait_for(
                lambda: not self.message.loading or inter.errors,
                timeout=timeout,
                what="(deferred response never filled)",
            )
        if inter.response_type == 6:
            # A deferred update shows nothing: wait for the edit/follow-up that normally comes
            # next (a bot that then does nothing just costs `timeout`, without failing).
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(
                    lambda: inter.activity >= 2 or inter.errors,
                    timeout=timeout,
                )
        # The bot may still be sending follow-ups: wait for a quiet period without activity.
        while (quiet := time.monotonic() - inter.last_activity) < self.fake.settle_time:  # noqa: ASYNC110
            await asyncio.sleep(self.fake.settle_time - quiet)
        for follow_up in self.fake.after_settle:
            await follow_up()
        return self


class ScriptedUser:
    """A human user of the fake Discord."""

    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.fake = fake
        self.user = user

    def __repr__(self) -> str:
        return f"<ScriptedUser {self.user.name} {self.user.id}>"

    @property
    def id(self) -> int:
        """User id."""
        return self.user.id

    @property
    def name(self) -> str:
        """User name."""
        return self.user.name

    # ------------------------------------------------------------------ reading

    def messages(self, channel: Channel | int) -> list[Message]:
        """Messages of a channel/thread this user can see, oldest first."""
        return self.fake.messages(channel, visible_to=self.user)

    def last_message(self, channel: Channel | int) -> Message | None:
        """Newest message this user can see in a channel/thread."""
        msgs = self.messages(channel)
        return msgs[-1] if msgs else None

    def can_see(self, message: Message) -> bool:
        """Whether this user sees `message`."""
        return message.visible_for(self.user)

    # ------------------------------------------------------------------ writing

    async def send(self, channel: Channel, content: str) -> Message:
        """Post a plain message as this user (MESSAGE_CREATE reaches the bot)."""
        if not self.fake.can_view_channel(self.user, channel):
            raise ScriptError(f"{self.name} cannot see channel {channel.name!r}")
        msg = self.fake.new_message(channel, self.user, content=content)
        self.fake.announce_message(msg)
        return msg

    async def slash(
        self,
        channel: Channel,
        command: str,
        *,
        wait: bool = True,
        timeout: float = 5.0,  # noqa: ASYNC109
        **options: Any,
    ) -> InteractionResult:
        """Run a synced slash command, e.g. `slash(chan, "tock new", players=4)`."""
        data = self._command_data(channel, command, options, focused=None)
        return await self._interact(2, channel, data, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        option: str,
        value: str,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type `value` into `option` of `command`; return the choices the bot suggested."""
        data = self._command_data(channel, command, {**options, option: value}, focused=option)
        result = await self._interact(4, channel, data, wait=True, timeout=timeout)
        return result.choices

    async def click(
        self,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        wait: bool = True,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Click a button of `message`, found by label and/or custom_id."""
        self._check_visible(message)
        button = message.find_component(label=label, custom_id=custom_id, type=2)
        if button.get("disabled"):
            raise ScriptError(f"button {label or custom_id!r} is disabled")
        if button.get("style") in (5, 6):
            raise ScriptError("link/premium buttons open a URL; they send no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        channel = self.fake.channels[message.channel_id]
        return await self._interact(3, channel, data, message=message, wait=wait, timeout=timeout)

    async def select(
        self,
        message: Message,
        *,
        values: list[Any],
        custom_id: str | None = None,
        placeholder: str | None = None,
        wait: bool = True,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Pick `values` in a select menu of `message` (found by custom_id or placeholder).

        String selects take option values; user/role/channel selects take `ScriptedUser`s,
        `Role`s or `Channel`s (sent with `resolved` data like Discord does).
        """
        self._check_visible(message)
        select = next(
            (
                c
                for c in iter_components(message.components)
                if c["type"] in (3, 5, 6, 7, 8)
                and custom_id in (None, c.get("custom_id"))
                and placeholder in (None, c.get("placeholder"))
            ),
            None,
        )
        if select is None:
            raise ScriptError(f"no select custom_id={custom_id!r} placeholder={placeholder!r}")
        if select.get("disabled"):
            raise ScriptError("select is disabled")
        lo, hi = select.get("min_values", 1), select.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ScriptError(f"select takes {lo}..{hi} values, got {len(values)}")
        if select["type"] == 3:
            offered = [o["value"] for o in select.get("options", [])]
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise ScriptError(f"values {unknown} not among the options {offered}")
        channel = self.fake.channels[message.channel_id]
        data: dict[str, Any] = {"custom_id": select["custom_id"], "component_type": select["type"]}
        if select["type"] == 3:
            data["values"] = [str(v) for v in values]
        else:
            resolved: dict[str, Any] = {}
            data["values"] = [self._resolve(v, resolved, channel) for v in values]
            data["resolved"] = resolved
        return await self._interact(3, channel, data, message=message, wait=wait, timeout=timeout)

    async def submit_modal(
        self,
        opened_by: InteractionResult,
        values: dict[str, str | list[str]],
        *,
        wait: bool = True,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to `opened_by`.

        `values` maps text inputs' custom_id to text (select menus: to a list of values).
        """
        modal = opened_by.modal
        if modal is None:
            raise ScriptError("that interaction did not open a modal")
        unknown = set(values) - {c.get("custom_id") for c in iter_components(modal["components"])}
        if unknown:
            raise ScriptError(f"modal has no inputs {sorted(unknown)}")
        components = [self._fill(c, values) for c in modal["components"]]
        data = {"custom_id": modal["custom_id"], "components": components}
        origin = opened_by.interaction
        channel = self.fake.channels[origin.channel_id]
        source = (
            self.fake.messages_by_id.get(origin.source_message_id)
            if origin.source_message_id
            else None
        )
        return await self._interact(5, channel, data, message=source, wait=wait, timeout=timeout)

    # ------------------------------------------------------------------ internals

    def _check_visible(self, message: Message) -> None:
        if not message.visible_for(self.user):
            raise ScriptError(f"{self.name} cannot see message {message.id}")

    def _fill(self, comp: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        """Submitted form of a modal component, with the user's values."""
        ctype = comp["type"]
        if ctype == 1:
            return {"type": 1, "components": [self._fill(c, values) for c in comp["components"]]}
        if ctype == 18:
            return {
                "type": 18,
                "id": comp.get("id", 0),
                "component": self._fill(comp["component"], values),
            }
        if ctype == 4:
            text = values.get(comp["custom_id"], comp.get("value") or "")
            assert isinstance(text, str)
            if comp.get("required", True) and not text:
                raise ScriptError(f"text input {comp['custom_id']!r} is required")
            if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                raise ScriptError(f"text input {comp['custom_id']!r}: length out of bounds")
            return {
                "type": 4,
                "id": comp.get("id", 0),
                "custom_id": comp["custom_id"],
                "value": text,
            }
        if ctype in (3, 5, 6, 7, 8):
            picked = values.get(comp["custom_id"], [])
            return {
                "type": ctype,
                "id": comp.get("id", 0),
                "custom_id": comp["custom_id"],
                "values": list(picked),
            }
        return {"type": ctype, "id": comp.get("id", 0)}

    def _command_data(
        self, channel: Channel, command: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        parts = command.split()
        cmd = self.fake.find_command(parts[0], channel.guild_id)
        if cmd is None:
            raise ScriptError(f"command {parts[0]!r} is not synced (the bot must sync its tree)")
        self._check_command_available(cmd, channel)
        node: dict[str, Any] = cmd
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next(
                (o for o in node.get("options") or [] if o["name"] == part and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                raise ScriptError(f"{command!r}: no subcommand {part!r}")
            chain.append(sub)
            node = sub
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            raise ScriptError(f"{command!r} is a group; name a subcommand")
        resolved: dict[str, Any] = {}
        leaf = [
            self._option(node, name, value, focused == name, resolved, channel)
            for name, value in options.items()
        ]
        for opt in node.get("options") or []:
            if opt.get("required") and opt["name"] not in options:
                raise ScriptError(f"{command!r}: required option {opt['name']!r} missing")
        for sub in reversed(chain):
            leaf = [{"type": sub["type"], "name": sub["name"], "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": leaf}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_command_available(self, cmd: dict[str, Any], channel: Channel) -> None:
        """The Discord client hides commands a member may not use, or not in this context."""
        guild = self.fake.guilds.get(channel.guild_id or 0)
        contexts = cmd.get("contexts")
        context = 0 if guild is not None else 1
        if contexts is not None and context not in contexts:
            raise ScriptError(f"command {cmd['name']!r} is not available in this context")
        needed = cmd.get("default_member_permissions")
        if guild is not None and needed is not None:
            needed = int(needed)
            if guild.permissions_of(self.id) & needed != needed:
                raise ScriptError(f"{self.name} lacks the permissions to see {cmd['name']!r}")

    def _option(
        self,
        node: dict[str, Any],
        name: str,
        value: Any,
        focused: bool,
        resolved: dict[str, Any],
        channel: Channel,
    ) -> dict[str, Any]:
        spec = next((o for o in node.get("options") or [] if o["name"] == name), None)
        if spec is None:
            names = [o["name"] for o in node.get("options") or []]
            raise ScriptError(f"no option {name!r}; options are {names}")
        otype = spec["type"]
        if focused:
            if not spec.get("autocomplete"):
                raise ScriptError(f"option {name!r} has no autocomplete")
            return {"type": otype, "name": name, "value": str(value), "focused": True}
        raw: Any = value
        if otype == 3:
            raw = str(value)
            if not spec.get("min_length", 0) <= len(raw) <= spec.get("max_length", 6000):
                raise ScriptError(f"option {name!r}: length out of bounds")
        elif otype == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ScriptError(f"option {name!r} takes an integer")
        elif otype == 10:
            raw = float(value)
        elif otype == 5:
            raw = bool(value)
        elif otype in (6, 7, 8, 9):
            raw = self._resolve(value, resolved, channel)
        elif otype == 11:
            filename, content = value
            stored = StoredFile(self.fake.ids.next(), filename, content, content_type_of(filename))
            raw = str(stored.id)
            self.fake.uploads[stored.id] = stored
            resolved.setdefault("attachments", {})[raw] = stored.payload(self.fake.url, channel.id)
        if otype in (4, 10) and not focused:
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if (lo is not None and raw < lo) or (hi is not None and raw > hi):
                raise ScriptError(f"option {name!r}={raw} outside [{lo}, {hi}]")
        choices = spec.get("choices")
        if choices and raw not in [c["value"] for c in choices]:
            raise ScriptError(f"option {name!r}={raw!r} is not one of the choices")
        return {"type": otype, "name": name, "value": raw}

    def _resolve(self, value: Any, resolved: dict[str, Any], channel: Channel) -> str:
        """Id of a user/channel/role value, adding it to `resolved` as Discord does."""
        if isinstance(value, ScriptedUser | User):
            user = value.user if isinstance(value, ScriptedUser) else value
            key = str(user.id)
            resolved.setdefault("users", {})[key] = user.payload()
            guild = self.fake.guilds.get(channel.guild_id or 0)
            if guild is not None and user.id in guild.members:
                member = self.fake.member_payload(guild, user)
                member.pop("user")
                resolved.setdefault("members", {})[key] = member
            return key
        if isinstance(value, Channel):
            key = str(value.id)
            resolved.setdefault("channels", {})[key] = {
                **value.payload(),
                "permissions": str(self._channel_permissions(value)),
            }
            return key
        if isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise ScriptError(f"expected a user, channel or role, got {value!r}")

    def _channel_permissions(self, channel: Channel) -> int:
        guild = self.fake.guilds.get(channel.guild_id or 0)
        return guild.permissions_of(self.id) if guild else 0

    async def _interact(
        self,
        itype: int,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        wait: bool,
        timeout: float,  # noqa: ASYNC109
    ) -> InteractionResult:
        fake = self.fake
        guild = fake.guilds.get(channel.guild_id or 0)
        if guild is not None and self.id not in guild.members:
            raise ScriptError(f"{self.name} is not a member of {guild.name}")
        # A session waiting for RESUME is fine: the event is replayed when the bot is back.
        if not any(s.handles_guild(channel.guild_id) for s in fake.gateway.live_sessions()):
            raise ScriptError("no shard of the bot handles this guild (is the bot running?)")
        if not fake.can_view_channel(self.user, channel):
            raise ScriptError(f"{self.name} cannot see channel {channel.name!r}")
        inter = Interaction(
            id=fake.ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(40),
            type=itype,
            user=self.user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            created_at=fake.clock.now(),
            payload={},
            source_message_id=message.id if message else None,
            last_activity=time.monotonic(),
        )
        payload: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(fake.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": {
                **channel.payload(fake.users),
                "permissions": str(self._channel_permissions(channel)),
            },
            "token": inter.token,
            "version": 1,
            "locale": self.user.locale,
            "app_permissions": str(guild.permissions_of(fake.bot_user.id)) if guild else "0",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id or 0)},
            "context": 0 if guild else 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = fake.member_payload(guild, self.user)
        else:
            payload["user"] = self.user.payload()
        if message is not None:
            payload["message"] = message.payload()
        inter.payload = payload
        fake.interactions[inter.id] = inter
        fake.interactions_by_token[inter.token] = inter
        await fake.emit("INTERACTION_CREATE", payload, channel.guild_id)
        result = InteractionResult(fake, inter)
        if wait:
            await result.settled(timeout)
        return result


__all__ = ["FLAG_EPHEMERAL", "InteractionResult", "ScriptError", "ScriptedUser"]
