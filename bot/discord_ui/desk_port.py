"""What the handler modules may use of the front desk: narrow protocols, not ``FrontDesk``.

The front desk (:mod:`bot.discord_ui.frontdesk`) imports the prompts, hints, ``/move`` and the
after-game pages to dispatch to them; if they imported ``FrontDesk`` back (even only for the
type checker) every one of them would sit in one import circle with it. They type their
``desk`` with the protocols here instead, and ``FrontDesk`` meets them structurally:

* :class:`PlayDesk` — what a click in a private prompt, a hint or ``/move`` uses: the service,
  the renderer, the open hands and ``/move``'s lists, delivering effects, and finding the
  table a command means.

This module imports no other front-end module but the renderer wrapper and the open hands
(which import none), so it can never close a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.discord_ui.open_hands import MoveLists, OpenHands
    from bot.discord_ui.rendering import Renderer
    from bot.effects import Effects
    from bot.tables import TableService


class PlayDesk(Protocol):
    """The desk as the prompts (race and tile), hints and ``/move`` use it."""

    @property
    def service(self) -> TableService:
        """The table service: every rule, permission and turn check is its."""
        ...

    @property
    def renderer(self) -> Renderer:
        """Draws hands, placements and figure spots off the event loop."""
        ...

    @property
    def hands(self) -> OpenHands:
        """The hands players keep open (edited whenever something changes for them)."""
        ...

    @property
    def move_lists(self) -> MoveLists:
        """The move lists ``/move`` offered lately (its autocomplete)."""
        ...

    async def deliver(self, effects: Effects, *, refresh: bool = True) -> None:
        """Send the public part of ``effects``; then refresh the open hands unless told not."""
        ...

    async def refresh_hands(self, effects: Effects, *, skip: int | None = None) -> None:
        """Edit the open hands ``effects`` concern, except ``skip``'s."""
        ...

    async def resolve_table(self, interaction: discord.Interaction, table_id: int | None) -> int:
        """The table a command means: given, this thread's, or the only one here."""
        ...
