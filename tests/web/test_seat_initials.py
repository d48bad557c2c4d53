"""The live board names each seat by its colour's initial in the reader's language (the
initials the PNG boards draw): the page draws what the state says, never a letter of its own.
"""

from __future__ import annotations

from bot.service import TableService
from tests.web.live import live_server
from tests.web.test_socket import ANN, CHANNEL, GUILD, tock_table


def initials(state: dict[str, object]) -> list[str]:
    seats = state["seats"]
    assert isinstance(seats, list)
    return [seat["initial"] for seat in sorted(seats, key=lambda seat: seat["seat"])]


async def test_the_seats_carry_their_initials_in_the_readers_language(
    service: TableService,
) -> None:
    table = await tock_table(service, watch=True)
    live = service.live
    assert initials(await live.reader_state(table, None, "en")) == ["R", "B", "Y", "G"]
    assert initials(await live.reader_state(table, None, "de")) == ["R", "B", "Ge", "Gr"]
    assert initials(await live.reader_state(table, None, "hu")) == ["P", "K", "S", "Z"]
    # A seated player's state too, and the socket sends the same.
    assert initials(await live.reader_state(table, ANN, "de")) == ["R", "B", "Ge", "Gr"]
    async with live_server(service) as server, server.page() as page:
        await page.hello(table, locale="hu")
        assert initials(await page.next("state")) == ["P", "K", "S", "Z"]


async def test_carcassonne_seats_carry_their_own_initials(service: TableService) -> None:
    effects = await service.create(GUILD, CHANNEL, "carcassonne", ANN, "Ann", players=3, seed=2)
    table = effects.table.id
    for _ in range(2):
        await service.add_bot(table, ANN)
    await service.start_game(table, ANN)
    # Carcassonne's third and fourth seats are green and yellow: Gr and Ge in German.
    assert initials(await service.live.reader_state(table, None, "de")) == ["R", "B", "Gr"]
    assert initials(await service.live.reader_state(table, None, "en")) == ["R", "B", "G"]
