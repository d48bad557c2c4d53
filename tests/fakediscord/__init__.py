"""A strict local fake Discord (REST + gateway) to test a discord.py bot end to end.

See README.md in this folder. Main entry points: `FakeDiscord`, `ScriptedUser`,
`InteractionResult`, and the `fake_discord` pytest fixture in `tests.fakediscord.fixtures`.
"""

from tests.fakediscord.faults import Fault
from tests.fakediscord.models import Channel, FakeClock, Guild, Message, StoredFile, User
from tests.fakediscord.scripting import InteractionResult, ScriptedUser, ScriptError
from tests.fakediscord.server import FakeDiscord, RequestRecord
from tests.fakediscord.validation import DiscordError

__all__ = [
    "Channel",
    "DiscordError",
    "FakeClock",
    "FakeDiscord",
    "Fault",
    "Guild",
    "InteractionResult",
    "Message",
    "RequestRecord",
    "ScriptError",
    "ScriptedUser",
    "StoredFile",
    "User",
]
