"""The fake rejects what Discord rejects, with Discord's error codes, and keeps Discord's traps."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.fakediscord.conftest import World, tiny_png


async def held_interaction(world: World) -> discord.Interaction:
    """Run /hold and return the interaction the bot kept unanswered."""
    await world.alice.slash(world.chan, "hold", wait=False)
    await world.fake.wait_for(lambda: world.bot.held)
    return world.bot.held[-1]


async def raw_send(world: World, payload: dict[str, Any]) -> Any:
    """POST a raw message body through discord.py's HTTP client (bypassing its own checks)."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.chan.id)
    return await world.bot.http.request(route, json=payload)


def error_paths(errors: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Flatten Discord's nested form errors to {"components.0.label": "CODE"}."""
    flat: dict[str, str] = {}
    for key, value in errors.items():
        if key == "_errors":
            flat[prefix.rstrip(".")] = value[0]["code"]
        else:
            flat.update(error_paths(value, f"{prefix}{key}."))
    return flat


def button(label: str = "Go", custom_id: str | None = None) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id or label}


def select(n_options: int, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n_options)]
    return {"type": 3, "custom_id": "sel", "options": options, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


V2 = 1 << 15
TEXT = {"type": 10, "content": "hi"}

INVALID_BODIES = [
    ("content over 2000", {"content": "x" * 2001}, "content"),
    ("6 action rows", {"components": [row(button(f"b{i}")) for i in range(6)]}, "components"),
    (
        "6 buttons in a row",
        {"components": [row(*[button(f"b{i}") for i in range(6)])]},
        "components.0.components",
    ),
    (
        "custom_id over 100",
        {"components": [row(button("ok", "c" * 101))]},
        "components.0.components.0.custom_id",
    ),
    (
        "duplicated custom_id",
        {"components": [row(button("a", "same")), row(button("b", "same"))]},
        "components.1.components.0.custom_id",
    ),
    (
        "select without options",
        {"components": [row(select(0))]},
        "components.0.components.0.options",
    ),
    (
        "select with 26 options",
        {"components": [row(select(26))]},
        "components.0.components.0.options",
    ),
    (
        "button label over 80",
        {"components": [row(button("L" * 81, "id"))]},
        "components.0.components.0.label",
    ),
    (
        "option label over 100",
        {"components": [row({**select(1), "options": [{"label": "x" * 101, "value": "v"}]})]},
        "components.0.components.0.options.0.label",
    ),
    (
        "option value over 100",
        {"components": [row({**select(1), "options": [{"label": "x", "value": "v" * 101}]})]},
        "components.0.components.0.options.0.value",
    ),
    (
        "placeholder over 150",
        {"components": [row(select(2, placeholder="p" * 151))]},
        "components.0.components.0.placeholder",
    ),
    ("V2 with content", {"flags": V2, "content": "no", "components": [TEXT]}, "content"),
    ("V2 with embeds", {"flags": V2, "embeds": [{"title": "no"}], "components": [TEXT]}, "embeds"),
    ("V2 with 41 components", {"flags": V2, "components": [TEXT] * 41}, "components"),
    ("V2 button outside a row", {"flags": V2, "components": [button()]}, "components.0.type"),
    ("legacy text display", {"components": [TEXT]}, "components.0.type"),
    (
        "section without accessory",
        {"flags": V2, "components": [{"type": 9, "components": [TEXT]}]},
        "components.0.accessory",
    ),
]


@pytest.mark.parametrize(
    ("body", "path"), [c[1:] for c in INVALID_BODIES], ids=[c[0] for c in INVALID_BODIES]
)
async def test_invalid_message_bodies_get_invalid_form_body(
    world: World, body: dict[str, Any], path: str
) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await raw_send(world, body)
    assert caught.value.status == 400
    assert caught.value.code == 50035
    error = world.fake.rejected[-1].error
    assert error is not None
    assert error.errors is not None
    assert path in error_paths(error.errors)
    assert world.fake.messages(world.chan) == []


async def test_valid_limits_are_accepted(world: World) -> None:
    body = {
        "content": "x" * 2000,
        "components": [row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(4)]
        + [row(select(25, placeholder="p" * 150))],
    }
    await raw_send(world, body)
    assert len(world.fake.messages(world.chan)[0].buttons) == 20


async def test_more_than_ten_files_is_rejected(world: World) -> None:
    channel = world.text_channel()
    eleven = [discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(11)]
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("many", files=eleven)
    assert caught.value.code == 50035
    ten = [discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(10)]
    await channel.send("ten", files=ten)
    assert len(world.fake.messages(world.chan)[-1].attachments) == 10


async def test_empty_message_is_rejected(world: World) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await raw_send(world, {"content": ""})
    assert caught.value.code == 50006


async def test_second_initial_response_is_already_acknowledged(world: World) -> None:
    res = await world.alice.slash(world.chan, "twice")
    assert [m.content for m in res.messages] == ["one"]
    assert [e["code"] for e in res.errors] == [40060]


async def test_initial_response_after_three_seconds_is_unknown_interaction(world: World) -> None:
    interaction = await held_interaction(world)
    world.fake.clock.advance(3.1)
    with pytest.raises(discord.NotFound) as caught:
        await interaction.response.send_message("late")
    assert caught.value.code == 10062


async def test_follow_up_after_fifteen_minutes_has_an_invalid_token(world: World) -> None:
    interaction = await held_interaction(world)
    await interaction.response.send_message("on time")
    world.fake.clock.advance(14 * 60)
    await interaction.followup.send("still fine")
    world.fake.clock.advance(61)
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.followup.send("too late")
    assert caught.value.status == 401
    assert caught.value.code == 50027


async def test_follow_up_before_any_response_is_unknown_webhook(world: World) -> None:
    interaction = await held_interaction(world)
    with pytest.raises(discord.NotFound) as caught:
        await interaction.followup.send("who?")
    assert caught.value.code == 10015


async def test_ephemeral_messages_cannot_be_fetched_through_the_channel(world: World) -> None:
    res = await world.alice.slash(world.chan, "secret")
    channel = world.text_channel()
    with pytest.raises(discord.NotFound) as caught:
        await channel.fetch_message(res.message.id)
    assert caught.value.code == 10008


async def test_missing_permission_to_create_threads(world: World) -> None:
    world.fake.set_bot_permissions(
        world.guild, discord.Permissions(view_channel=True, send_messages=True).value
    )
    channel = world.text_channel()
    msg = await channel.send("hello")
    with pytest.raises(discord.Forbidden) as caught:
        await msg.create_thread(name="nope")
    assert caught.value.code == 50013


def gallery_view(filename: str) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("Board"))
    view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{filename}")))
    return view


async def test_components_v2_media_is_not_listed_and_edit_with_new_media_can_fail(
    world: World,
) -> None:
    interaction = await held_interaction(world)
    png = discord.File(io.BytesIO(tiny_png()), "a.png")
    await interaction.response.send_message(view=gallery_view("a.png"), file=png)
    original = await interaction.original_response()
    stored = world.fake.message(original.id)
    assert stored.flags & V2
    assert stored.attachments == []  # shown by the gallery, so not listed
    assert stored.file("a.png").data == tiny_png()
    assert original.attachments == []

    world.fake.fail_v2_edits_with_new_media = True  # discord-api-docs#7529
    new_png = discord.File(io.BytesIO(tiny_png(5, 5)), "b.png")
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(view=gallery_view("b.png"), attachments=[new_png])
    assert caught.value.code == 50035
    assert world.fake.message(original.id).files[0].filename == "a.png"

    world.fake.fail_v2_edits_with_new_media = False
    new_png = discord.File(io.BytesIO(tiny_png(5, 5)), "b.png")
    await interaction.edit_original_response(view=gallery_view("b.png"), attachments=[new_png])
    assert [f.filename for f in world.fake.message(original.id).files] == ["b.png"]


async def test_components_v2_edit_cannot_add_content(world: World) -> None:
    interaction = await held_interaction(world)
    await interaction.response.send_message(
        view=gallery_view("a.png"), file=discord.File(io.BytesIO(tiny_png()), "a.png")
    )
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(content="legacy")
    assert caught.value.code == 50035


class BoardLayout(discord.ui.LayoutView):
    """A rich Components V2 layout as discord.py builds it."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        join: discord.ui.Button[BoardLayout] = discord.ui.Button(label="Join", custom_id="v2:join")
        join.callback = self.on_join  # type: ignore[method-assign]
        leave: discord.ui.Button[BoardLayout] = discord.ui.Button(label="Leave", custom_id="v2:l")
        row: discord.ui.ActionRow[BoardLayout] = discord.ui.ActionRow(leave)
        container = discord.ui.Container(
            discord.ui.Section(discord.ui.TextDisplay("Table 1"), accessory=join),
            discord.ui.Separator(),
            discord.ui.Section(
                discord.ui.TextDisplay("Board"),
                accessory=discord.ui.Thumbnail("attachment://thumb.png"),
            ),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
            discord.ui.File("attachment://rules.txt"),
            row,
        )
        self.add_item(container)

    async def on_join(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("joined via V2", ephemeral=True)


async def test_rich_components_v2_layout_is_accepted_and_clickable(world: World) -> None:
    files = [
        discord.File(io.BytesIO(tiny_png()), "thumb.png"),
        discord.File(io.BytesIO(tiny_png(8, 8)), "board.png"),
        discord.File(io.BytesIO(b"rules"), "rules.txt"),
        discord.File(io.BytesIO(b"extra"), "extra.txt"),
    ]
    await world.text_channel().send(view=BoardLayout(), files=files)
    msg = world.fake.messages(world.chan)[-1]
    assert [f.filename for f in msg.attachments] == ["extra.txt"]
    assert "Table 1" in msg.text
    res = await world.alice.click(msg, label="Join")
    assert res.message.content == "joined via V2"
    assert res.ephemeral


async def test_follow_up_filling_a_deferral_with_new_media_can_fail(world: World) -> None:
    world.fake.fail_v2_edits_with_new_media = True
    interaction = await held_interaction(world)
    await interaction.response.defer()
    png = discord.File(io.BytesIO(tiny_png()), "a.png")
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.followup.send(view=gallery_view("a.png"), file=png)
    assert caught.value.code == 50035
    # A separate follow-up (the deferral already filled) posts a new message: that works.
    await interaction.followup.send("filled")
    png = discord.File(io.BytesIO(tiny_png()), "a.png")
    await interaction.followup.send(view=gallery_view("a.png"), file=png)
    assert [m.text for m in world.fake.messages(world.chan)] == ["filled", "Board"]


async def test_editing_an_ephemeral_message_after_fifteen_minutes_fails(world: World) -> None:
    # A bot keeps a private message up to date through its interaction's webhook: Discord
    # takes the token for 15 minutes, then refuses the edit like a follow-up.
    interaction = await held_interaction(world)
    await interaction.response.send_message("your hand", ephemeral=True)
    world.fake.clock.advance(14 * 60)
    message = await interaction.edit_original_response(content="your hand, later")
    assert message.content == "your hand, later"
    world.fake.clock.advance(61)
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(content="too late")
    assert caught.value.status == 401
    assert caught.value.code == 50027
