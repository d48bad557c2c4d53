"""REST handlers of OAuth2 for an Activity's sign-in: the token endpoint and the user's own
servers (``/users/@me`` with a Bearer token is in :mod:`routes_meta`).

As Discord documents it (OAuth2, "Authorization Code Grant"): the app posts a form with
``client_id``, ``client_secret``, ``grant_type=authorization_code`` and the ``code`` the
Embedded App SDK's ``authorize`` gave the page; a code works once; the answer is
``{access_token, token_type: "Bearer", expires_in, refresh_token, scope}``. A wrong client or
code is refused with ``400 {"error": "invalid_grant"}`` (``invalid_client`` for the client).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.rest import Req, json_response, route
from tests.fakediscord.validation import DiscordError

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord


class OAuthRefusal(DiscordError):
    """OAuth2's own error body (not Discord's usual ``{code, message}``)."""

    def __init__(self, status: int, error: str) -> None:
        super().__init__(status, 0, error)
        self.oauth_error = error

    def body(self) -> dict[str, Any]:
        return {"error": self.oauth_error}


@route("POST", "/oauth2/token", auth=False)
async def oauth_token(fake: FakeDiscord, req: Req) -> Any:
    form = req.payload if isinstance(req.payload, dict) else {}
    if (
        form.get("client_id") != str(fake.application_id)
        or form.get("client_secret") != fake.client_secret
    ):
        raise OAuthRefusal(401, "invalid_client")
    if form.get("grant_type") != "authorization_code":
        raise OAuthRefusal(400, "unsupported_grant_type")
    grant = fake.oauth_codes.pop(str(form.get("code", "")), None)
    if grant is None:
        raise OAuthRefusal(400, "invalid_grant")
    user_id, scopes = grant
    token = fake.new_oauth_token(user_id, scopes)
    return {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": 604800,
        "refresh_token": token[::-1],
        "scope": " ".join(scopes),
    }


@route("GET", "/users/@me/guilds", auth=False)
async def my_guilds(fake: FakeDiscord, req: Req) -> Any:
    user = fake.oauth_user(req.authorization, "guilds")
    return [
        {"id": str(guild.id), "name": guild.name, "icon": None, "owner": False}
        for guild in fake.guilds.values()
        if user.id in guild.members
    ]


__all__ = ["json_response", "my_guilds", "oauth_token"]
