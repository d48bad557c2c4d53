"""Logging set-up for the bot process, with secrets redacted from every record."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.discord_ui.replies import INTERACTION_ACKNOWLEDGED

REDACTED = "[redacted]"


class RedactSecrets(logging.Filter):
    """Replace every occurrence of a secret (the bot token) in a log record's text.

    discord.py does not log the token itself, but a traceback of a failed request or a
    third-party library might; a filter on the handler catches them all.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        message = record.getMessage()
        text = message
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        if record.exc_info and record.exc_text is None:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            exc_text = record.exc_text
            for secret in self._secrets:
                exc_text = exc_text.replace(secret, REDACTED)
            record.exc_text = exc_text
        if text != message:
            record.msg = text
            record.args = None
        return True


class AcknowledgedElsewhere(logging.Filter):
    """Turn discord.py's ERROR about an autocomplete answer Discord refused because another
    process answered first (40060: two processes got it, during a rolling restart) into one
    INFO line without a traceback. discord.py logs it itself, out of the bot's reach."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        refused = getattr(error, "code", None) == INTERACTION_ACKNOWLEDGED
        if refused and record.levelno >= logging.ERROR:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = "answered by another process: " + str(record.msg)
            record.exc_info, record.exc_text = None, None
        return True


def quiet_refused_acknowledgements() -> None:
    """Install :class:`AcknowledgedElsewhere` on discord.py's command tree logger (once)."""
    tree = logging.getLogger("discord.app_commands.tree")
    if not any(isinstance(f, AcknowledgedElsewhere) for f in tree.filters):
        tree.addFilter(AcknowledgedElsewhere())


def setup_logging(level: str, *, secrets: Iterable[str] = ()) -> logging.Handler:
    """Log to stderr at ``level`` with secrets redacted; return the installed handler."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "poeppel", False)]:
        root.removeHandler(old)  # set up twice in one process: replace, never duplicate
    handler.poeppel = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
