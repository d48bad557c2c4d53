"""What Discord rejects, with Discord's error shapes.

Limits follow https://discord.com/developers/docs (message, components, interactions). Each
violation becomes a `DiscordError` which the REST layer turns into the JSON body Discord sends:
`{"code": 50035, "message": "Invalid Form Body", "errors": {...}}` for form errors, or a plain
`{"code": ..., "message": ...}` for the other JSON error codes.
"""

from __future__ import annotations

import re
from typing import Any

from tests.fakediscord.models import FLAG_COMPONENTS_V2, iter_components

V2_TYPES = {9, 10, 11, 12, 13, 14, 17}
SELECT_TYPES = {3, 5, 6, 7, 8}
INTERACTIVE_TYPES = {2, *SELECT_TYPES}
ALLOWED_MESSAGE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | FLAG_COMPONENTS_V2
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class DiscordError(Exception):
    """An error response: HTTP status, JSON error code, message and (for 50035) field errors."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """JSON body Discord would send."""
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def unknown(what: str, code: int) -> DiscordError:
    """404 'Unknown X' error (10003 channel, 10008 message, 10062 interaction...)."""
    return DiscordError(404, code, f"Unknown {what}")


class FormErrors:
    """Collects field errors under their JSON path, the way Discord nests them."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        """Record one error at `path` (e.g. ("components", 0, "components", 1, "label"))."""
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_len(self, path: tuple[str | int, ...], value: Any, limit: int) -> None:
        """Error if `value` (str or list) is longer than `limit`."""
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        """Raise the 50035 Invalid Form Body error if anything was recorded."""
        if self.errors:
            raise DiscordError(400, 50035, "Invalid Form Body", self.errors)


def validate_message(payload: dict[str, Any], *, n_files: int, edit: bool = False) -> None:
    """Check a message create/edit body (channel message, interaction response or webhook)."""
    errors = FormErrors()
    content = payload.get("content")
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    flags = int(payload.get("flags") or 0)
    errors.max_len(("content",), content, 2000)
    nonce = payload.get("nonce")
    if isinstance(nonce, str):
        errors.max_len(("nonce",), nonce, 25)
    elif nonce is not None and not isinstance(nonce, int):
        errors.add(("nonce",), "NONCE_TYPE_INVALID", "Nonce must be a string or an integer.")
    if n_files > 10:
        errors.add(("files",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    errors.max_len(("embeds",), embeds, 10)
    for i, embed in enumerate(embeds):
        _validate_embed(errors, ("embeds", i), embed)
    if flags & ~ALLOWED_MESSAGE_FLAGS:
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid message flags.")
    if flags & FLAG_COMPONENTS_V2:
        if content:
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if embeds:
            errors.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        total = sum(1 for _ in iter_components(components))
        if total > 40:
            errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        text = sum(
            len(c.get("content", "")) for c in iter_components(components) if c["type"] == 10
        )
        if text > 4000:
            errors.add(
                ("components",),
                "MESSAGE_TOTAL_TEXT_DISPLAY_LENGTH_EXCEEDED",
                "Total text displayed must be 4000 or fewer characters.",
            )
        _check_layout(errors, components, ("components",), V2_TOP_LEVEL)
    else:
        errors.max_len(("components",), components, 5)
        _check_layout(errors, components, ("components",), {1})
    for path, comp in walk_components(components, ("components",)):
        _validate_component(errors, path, comp)
    seen: set[str] = set()
    for path, comp in walk_components(components, ("components",)):
        cid = comp.get("custom_id")
        if cid is None or comp.get("type") not in INTERACTIVE_TYPES:
            continue
        if cid in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(cid)
    errors.raise_if_any()
    empty = not content and not embeds and not components and not n_files
    if not edit and empty and not payload.get("sticker_ids") and not payload.get("poll"):
        raise DiscordError(400, 50006, "Cannot send an empty message")


V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
CONTAINER_CHILDREN = {1, 9, 10, 12, 13, 14}
ROW_CHILDREN = {2, *SELECT_TYPES}


def _check_layout(
    errors: FormErrors, components: list[dict[str, Any]], path: tuple[Any, ...], allowed: set[int]
) -> None:
    """Each component type only where Discord accepts it (buttons only in rows/accessories...)."""
    for i, comp in enumerate(components):
        here = (*path, i)
        ctype = comp.get("type")
        if ctype not in allowed:
            errors.add(
                (*here, "type"),
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
            )
            continue
        if ctype == 1:
            _check_layout(errors, comp.get("components") or [], (*here, "components"), ROW_CHILDREN)
        elif ctype == 17:
            children = comp.get("components") or []
            _check_layout(errors, children, (*here, "components"), CONTAINER_CHILDREN)
        elif ctype == 9:
            texts = comp.get("components") or []
            if not 1 <= len(texts) <= 3:
                errors.add(
                    (*here, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3."
                )
            _check_layout(errors, texts, (*here, "components"), {10})
            accessory = comp.get("accessory")
            if not isinstance(accessory, dict):
                errors.add((*here, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            elif accessory.get("type") not in (2, 11):
                errors.add(
                    (*here, "accessory", "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (2, 11).',
                )


def walk_components(components: list[dict[str, Any]], path: tuple[Any, ...]) -> Any:
    """Components with their JSON paths (accessories and label children included)."""
    for i, comp in enumerate(components):
        here = (*path, i)
        yield here, comp
        yield from walk_components(comp.get("components", []), (*here, "components"))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield (*here, key), comp[key]
                yield from walk_components(
                    comp[key].get("components", []), (*here, key, "components")
                )


def _validate_embed(errors: FormErrors, path: tuple[Any, ...], embed: dict[str, Any]) -> None:
    errors.max_len((*path, "title"), embed.get("title"), 256)
    errors.max_len((*path, "description"), embed.get("description"), 4096)
    fields = embed.get("fields") or []
    errors.max_len((*path, "fields"), fields, 25)
    for j, f in enumerate(fields):
        errors.max_len((*path, "fields", j, "name"), f.get("name"), 256)
        errors.max_len((*path, "fields", j, "value"), f.get("value"), 1024)
    errors.max_len((*path, "footer", "text"), (embed.get("footer") or {}).get("text"), 2048)
    errors.max_len((*path, "author", "name"), (embed.get("author") or {}).get("name"), 256)


def _validate_component(errors: FormErrors, path: tuple[Any, ...], comp: dict[str, Any]) -> None:
    ctype = comp.get("type")
    if "custom_id" in comp:
        cid = comp["custom_id"]
        errors.max_len((*path, "custom_id"), cid, 100)
        if cid == "":
            errors.add((*path, "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100.")
    if ctype == 1:
        children = comp.get("components") or []
        if not children:
            errors.add(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        errors.max_len((*path, "components"), children, 5)
        kinds = {c.get("type") for c in children}
        if kinds & SELECT_TYPES and len(children) > 1:
            errors.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    elif ctype == 2:
        errors.max_len((*path, "label"), comp.get("label"), 80)
        style = comp.get("style")
        if style == 5:
            if not comp.get("url"):
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif style == 6:
            if not comp.get("sku_id"):
                errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
        elif not comp.get("custom_id"):
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if style not in (1, 2, 3, 4, 5, 6):
            errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1..6).")
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            errors.add((*path, "label"), "BASE_TYPE_REQUIRED", "Button needs a label or an emoji")
    elif ctype in SELECT_TYPES:
        errors.max_len((*path, "placeholder"), comp.get("placeholder"), 150)
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                errors.add(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 25 in length.",
                )
            values = set()
            for j, opt in enumerate(options):
                errors.max_len((*path, "options", j, "label"), opt.get("label"), 100)
                errors.max_len((*path, "options", j, "value"), opt.get("value"), 100)
                errors.max_len((*path, "options", j, "description"), opt.get("description"), 100)
                if opt.get("value") in values:
                    errors.add(
                        (*path, "options", j, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Component select option value cannot be duplicated",
                    )
                values.add(opt.get("value"))
            max_values = comp.get("max_values", 1)
            if max_values > len(options):
                errors.add(
                    (*path, "max_values"),
                    "BASE_TYPE_MAX",
                    f"int value should be less than or equal to {len(options)}.",
                )
        min_values = comp.get("min_values", 1)
        max_values = comp.get("max_values", 1)
        if not 0 <= min_values <= 25:
            errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        if not 1 <= max_values <= 25 or max_values < min_values:
            errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
    elif ctype == 10:
        errors.max_len((*path, "content"), comp.get("content"), 4000)
    elif ctype == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            errors.add((*path, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10.")


def validate_modal(data: dict[str, Any]) -> None:
    """Check a modal (callback type 9) body."""
    errors = FormErrors()
    errors.max_len(("data", "title"), data.get("title"), 45)
    if not data.get("title"):
        errors.add(("data", "title"), "BASE_TYPE_REQUIRED", "This field is required")
    errors.max_len(("data", "custom_id"), data.get("custom_id"), 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5.")
    for path, comp in walk_components(components, ("data", "components")):
        if comp.get("type") == 4:
            errors.max_len((*path, "label"), comp.get("label"), 45)
            errors.max_len((*path, "placeholder"), comp.get("placeholder"), 100)
            errors.max_len((*path, "value"), comp.get("value"), 4000)
        if comp.get("type") == 18:
            errors.max_len((*path, "label"), comp.get("label"), 45)
        if "custom_id" in comp:
            errors.max_len((*path, "custom_id"), comp["custom_id"], 100)
    errors.raise_if_any()


def validate_choices(data: dict[str, Any]) -> None:
    """Check an autocomplete result (callback type 8)."""
    errors = FormErrors()
    choices = data.get("choices") or []
    errors.max_len(("data", "choices"), choices, 25)
    for i, choice in enumerate(choices):
        errors.max_len(("data", "choices", i, "name"), choice.get("name"), 100)
        if isinstance(choice.get("value"), str):
            errors.max_len(("data", "choices", i, "value"), choice["value"], 100)
    errors.raise_if_any()


def validate_command(cmd: dict[str, Any], path: tuple[Any, ...] = ()) -> FormErrors:
    """Check an application command definition (name, description, options, choices)."""
    errors = FormErrors()
    _validate_command_node(errors, path, cmd, top=True)
    return errors


def _validate_command_node(
    errors: FormErrors, path: tuple[Any, ...], node: dict[str, Any], top: bool
) -> None:
    name = node.get("name", "")
    ctype = node.get("type", 1)
    if ctype == 1 or not top:
        if not COMMAND_NAME.match(name) or name != name.lower():
            errors.add(
                (*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        desc = node.get("description", "")
        if not 1 <= len(desc) <= 100:
            errors.add(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
    options = node.get("options") or []
    errors.max_len((*path, "options"), options, 25)
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(options):
        _validate_command_node(errors, (*path, "options", i), opt, top=False)
        if opt.get("name") in names:
            errors.add(
                (*path, "options", i, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(opt.get("name", ""))
        if opt.get("type") in (1, 2):
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    (*path, "options", i, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        errors.max_len((*path, "options", i, "choices"), choices, 25)
        if choices and opt.get("autocomplete"):
            errors.add(
                (*path, "options", i, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be set if choices are present",
            )
