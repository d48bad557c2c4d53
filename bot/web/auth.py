"""Who is at the live page: the Activity's OAuth2 code exchanged for the user, the page's
session token, and the origins a page may come from.

The Embedded App SDK's ``authorize`` gives the page a code; the page posts it here; the
server exchanges it at Discord's OAuth2 token endpoint with the client secret (never in the
page), asks ``/users/@me`` with the user's access token who the user is (never trusting what
the page says), and signs a short-lived session bound to that user and one table. The session
travels in JSON bodies only (the token answer, the socket's hello), never in a URL.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord.http

#: How long a session token is good for (seconds): an evening's game.
SESSION_SECONDS = 2 * 60 * 60
#: The OAuth2 scopes the page asks for (``guilds``: to know the user's servers).
SCOPES = ("identify", "guilds")
LOCALES = ("en", "de", "hu")


def api_base() -> str:
    """Discord's API base, as discord.py uses it (the tests' fake Discord replaces it)."""
    return str(discord.http.Route.BASE).rstrip("/")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def page_locale(discord_locale: str | None) -> str:
    """The catalogue locale for a Discord locale (``en-US``, ``de``, ``hu``); English else."""
    short = (discord_locale or "en").split("-")[0].lower()
    return short if short in LOCALES else "en"


@dataclass(frozen=True, slots=True)
class Session:
    """A verified session: the user, the one table it is for, and their language."""

    user_id: int
    table_id: int
    locale: str = "en"
    #: Whether Discord told us the user is a member of the table's server.
    member: bool = False


@dataclass(slots=True)
class SessionSigner:
    """Signs and checks session tokens with HMAC-SHA256 (``secret``: bytes; a random one per
    process when none is configured, so sessions then end with the process)."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    seconds: int = SESSION_SECONDS
    now: Callable[[], float] = time.time

    def sign(self, session: Session) -> str:
        """The token of ``session``, valid for :attr:`seconds`."""
        payload = {
            "u": str(session.user_id),
            "t": session.table_id,
            "l": session.locale,
            "m": session.member,
            "e": int(self.now()) + self.seconds,
        }
        body = _b64(json.dumps(payload, separators=(",", ":")).encode())
        return f"{body}.{self._mac(body)}"

    def verify(self, token: object) -> Session | None:
        """The session of ``token``, or None if it is forged, malformed or expired."""
        if not isinstance(token, str) or token.count(".") != 1 or len(token) > 1024:
            return None
        body, mac = token.split(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            return None
        try:
            payload = json.loads(_unb64(body))
            if int(payload["e"]) < self.now():
                return None
            return Session(
                int(payload["u"]),
                int(payload["t"]),
                page_locale(payload.get("l")),
                bool(payload.get("m")),
            )
        except (ValueError, KeyError, TypeError):
            return None

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self.secret, body.encode(), hashlib.sha256).digest())


def origin_of(url: str | None) -> str | None:
    """The origin (scheme://host[:port]) of ``url``."""
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def allowed_origins(public_url: str | None, client_id: str | None) -> frozenset[str]:
    """The origins a page may come from: the public URL's and the Activity's."""
    origins = set()
    if (own := origin_of(public_url)) is not None:
        origins.add(own)
    if client_id:
        origins.add(f"https://{client_id}.discordsays.com")
    return frozenset(origins)


class OAuthError(Exception):
    """Discord refused the code or the token (``status``: what to answer the page)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """Who Discord says the user is."""

    user_id: int
    locale: str
    guilds: frozenset[int]


async def exchange_code(
    http: aiohttp.ClientSession, code: str, client_id: str, client_secret: str
) -> tuple[str, DiscordUser]:
    """Exchange the Activity's OAuth2 ``code`` for the user's access token, and ask Discord
    who the user is and which servers they are on."""
    base = api_base()
    form = {
        "client_id": client_id,
        "client_secret": client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    async with http.post(f"{base}/oauth2/token", data=form) as response:
        if response.status != 200:
            raise OAuthError(403, f"token exchange refused ({response.status})")
        grant: dict[str, Any] = await response.json()
    token = grant.get("access_token")
    if not isinstance(token, str) or not token:
        raise OAuthError(403, "no access token")
    headers = {"Authorization": f"Bearer {token}"}
    async with http.get(f"{base}/users/@me", headers=headers) as response:
        if response.status != 200:
            raise OAuthError(403, f"users/@me refused ({response.status})")
        me: dict[str, Any] = await response.json()
    guilds: frozenset[int] = frozenset()
    if "guilds" in str(grant.get("scope", "")).split():
        async with http.get(f"{base}/users/@me/guilds", headers=headers) as response:
            if response.status == 200:
                guilds = frozenset(int(g["id"]) for g in await response.json())
    return token, DiscordUser(int(me["id"]), page_locale(me.get("locale")), guilds)
