"""The route of a person's click: the boards of their move go out on its interaction.

Discord allows a bot some 50 requests a second across its channel routes (the global limit;
:mod:`bot.discord_ui.pace` keeps the publisher under it), but the routes of an interaction's
token — its follow-ups, and the edits and deletes of the messages they made — are not bound to
that limit. At forty busy tables the global limit, not the drawing, is what makes a board wait
(two requests a digest: its post, and the old board's controls). So the digest that follows a
person's click is posted as a public follow-up of that click, and the edits of that message
(the bots' moves told in it, its controls removed when the next board comes) go through the
same token for as long as it lives; everything else stays on the channel routes.

Only a click answered by a *deferred update* (or an update) of the message it was on may carry
the board: after an ephemeral "thinking" deferral, Discord fills the thinking message with the
first follow-up and keeps it private, so the board would reach nobody.

Follow-ups carry no nonce, and discord.py sends a webhook request again after a server error
(up to five times, 25 s): a board Discord made before it failed would be posted twice. A
route's requests are therefore tried once; after a server error the publisher looks for the
board in the thread before it posts it there (:class:`bot.discord_ui.publisher.Publisher`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Any, cast

import discord

from bot.discord_ui.open_hands import MARGIN, TOKEN_LIFETIME

#: The answers after which a follow-up is a new message of its own (see the module).
ANSWERED_IN_PLACE = frozenset(
    {
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    }
)


@dataclass(frozen=True, slots=True)
class ClickRoute:
    """The follow-up webhook of one click, where it may post, and until when."""

    webhook: discord.Webhook
    channel_id: int
    #: Until when (the service's clock) the token may be used: its lifetime less a margin
    #: (a request that leaves just before the end must still arrive in time).
    until: float

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], now: float) -> ClickRoute | None:
        """The route of ``interaction`` once it was answered in place; None otherwise.
        ``now``: the service's clock as its move is delivered (seconds after the click,
        which the margin covers)."""
        if interaction.response.type not in ANSWERED_IN_PLACE or interaction.channel_id is None:
            return None
        webhook = interaction.followup
        webhook.session = cast(Any, _OneAttempt(webhook.session))
        return cls(webhook, interaction.channel_id, now + TOKEN_LIFETIME - MARGIN)

    def serves(self, channel_id: int, now: float) -> bool:
        """Whether a message in ``channel_id`` may go through this route at ``now``."""
        return channel_id == self.channel_id and now < self.until


def newest(routes: list[ClickRoute | None]) -> ClickRoute | None:
    """The route that lives longest of ``routes`` (the newest click's)."""
    known = [route for route in routes if route is not None]
    return max(known, key=lambda route: route.until, default=None)


class _OneAttempt:
    """An HTTP session whose Discord server errors are raised at once (see the module): the
    webhook's requests go through it, so discord.py does not send them again."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _RaiseServerErrors:
        return _RaiseServerErrors(self._session.request(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class _RaiseServerErrors:
    """One request's response, or :class:`discord.DiscordServerError` for a 5xx."""

    def __init__(self, pending: Any) -> None:
        self._pending = pending

    async def __aenter__(self) -> Any:
        response = await self._pending.__aenter__()
        if response.status >= 500:
            text = await response.text()
            await self._pending.__aexit__(None, None, None)
            raise discord.DiscordServerError(response, text)
        return response

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self._pending.__aexit__(kind, error, trace)
