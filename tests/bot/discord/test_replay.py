"""``/table replay``, the results post (its files, Rematch and Replay) and its delivery."""

from __future__ import annotations

import io
import random

import discord
import pytest
from PIL import Image

from bot.after_game.records import loads, replay_views
from tests.bot.discord.conftest import World, private_text
from tests.bot.discord.driving import Stats, play_tiles_to_the_end
from tests.bot.discord.secrecy import scan_public
from tests.bot.discord.test_lobby import open_table


@pytest.mark.slow
async def test_the_replay_steps_through_every_position_to_the_last_board(world: World) -> None:
    world.seeds.append(7)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    early = await world.bob.slash(world.channel, "table replay", table=table_id)
    assert "finished" in private_text(early, world.bob)  # not before the end
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    users = [world.alice, world.bob]
    await play_tiles_to_the_end(world, table_id, users, random.Random(3), Stats())
    thread = world.thread_of(world.lobby(table_id))
    boards = [
        m for m in world.boards(thread) if any(f.filename.startswith("board-") for f in m.files)
    ]
    last_board = boards[-1].files[0].data
    log = await world.desk.service.storage.load_log(table_id)

    # Carol watched: she may replay any finished table of the server.
    result = await world.carol.slash(world.channel, "table replay", table=table_id)
    viewer = result.visible_to(world.carol)[-1]
    assert viewer.ephemeral
    assert f"position 0 of {len(log)}" in viewer.content
    labels = [b["label"] for b in viewer.buttons]
    assert labels == ["⏮ First", "⏪ −10%", "◀ Back", "Forward ▶", "+10% ⏩", "Last ⏭"]
    assert [b.get("disabled", False) for b in viewer.buttons][:3] == [True, True, True]

    async def click(label: str, position: int) -> None:
        await world.carol.click(viewer, label=label)
        await world.wait(lambda: f"position {position} of" in viewer.content, f"({label})")

    await click("Forward ▶", 1)
    assert "places" in viewer.content  # what happened, in words
    tenth = len(log) // 10
    await click("+10% ⏩", 1 + tenth)
    await click("◀ Back", tenth)
    await click("Last ⏭", len(log))
    assert viewer.files[-1].data == last_board  # the last replay image is the last board
    await click("⏪ −10%", len(log) - tenth)
    await click("⏮ First", 0)

    # The results post carries the animated summary and the downloadable record.
    post = next(m for m in world.boards(thread) if m.files and "final standings" in m.content)
    gif = Image.open(io.BytesIO(post.file(f"summary-{table_id}.gif").data))
    assert gif.width == 400
    assert gif.n_frames > 10
    assert len(post.file(f"summary-{table_id}.gif").data) < 10 * 1024 * 1024
    gif.seek(gif.n_frames - 1)
    record = loads(post.file(f"record-{table_id}.json").data)
    positions = list(replay_views(record))
    assert len(positions) == len(log) + 1
    assert positions[-1][1] == await world.desk.service.public_view(table_id)

    # Replay from the results post opens the same private viewer.
    opened = await world.carol.click(post, label="Replay")
    assert f"position 0 of {len(log)}" in private_text(opened, world.carol)

    # Rematch: bob opens it and hosts; alice's seat is kept until her one click.
    refused = await world.carol.click(post, label="Rematch")
    assert "Only the players" in private_text(refused, world.carol)
    asked = await world.bob.click(post, label="Rematch")
    assert "rematch is open" in private_text(asked, world.bob)
    rematch = await world.wait(lambda: world.lobby() if world.lobby().id != lobby.id else None)
    new_id = int(rematch.text.split("#", 1)[1].split(" ", 1)[0])
    assert new_id != table_id
    assert f"kept for <@{world.alice.id}>" in rematch.text
    invite = world.fake.messages(world.thread_of(rematch))[-1]
    assert f"<@{world.alice.id}>" in invite.content  # alice hears her seat is kept
    early = await world.bob.click(rematch, label="Start")
    assert "kept" in private_text(early, world.bob)
    confirmed = await world.alice.click(post, label="Rematch")
    assert "confirmed" in private_text(confirmed, world.alice)
    assert "kept for" not in world.lobby(new_id).text
    await world.bob.click(world.lobby(new_id), label="Start")
    new_thread = world.thread_of(world.lobby(new_id))
    await world.wait(lambda: world.newest_board(new_thread), "(the rematch's first board)")
    new = await world.desk.service.get(new_id)
    assert new.phase.value == "playing"
    assert new.options == (await world.desk.service.get(table_id)).options
    scan_public(world)


@pytest.mark.slow
async def test_a_results_post_that_failed_goes_out_after_a_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.discord_ui.after_game import AfterGame

    async def refused(self: AfterGame, item: object) -> None:
        raise discord.HTTPException(_Response(), "Discord is down")

    monkeypatch.setattr(AfterGame, "_results_message", refused)
    world.seeds.append(7)
    table_id, lobby = await open_table(world, "carcassonne", players=2)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(world.lobby(table_id), label="Start")
    await play_tiles_to_the_end(
        world, table_id, [world.alice, world.bob], random.Random(3), Stats()
    )
    thread = world.thread_of(world.lobby(table_id))
    assert not [m for m in world.boards(thread) if "final standings" in m.content]
    monkeypatch.undo()
    await world.restart()
    await world.wait(
        lambda: [m for m in world.boards(thread) if "final standings" in m.content], "(post)"
    )
    await world.restart()  # posted once: a second start posts nothing more
    await world.desk.after.post_pending()
    assert len([m for m in world.boards(thread) if "final standings" in m.content]) == 1


class _Response:
    """The least of an aiohttp response that discord.HTTPException reads."""

    status = 503
    reason = "Service Unavailable"
