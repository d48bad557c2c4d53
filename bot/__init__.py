"""Pöppel's application: the table service and its front ends, in layers (see README).

``model`` (a table's values) < ``after_game`` | ``bots`` < ``storage`` < ``service`` (the table
service, knows no transport) < ``discord_ui`` | ``console`` < ``cli``; ``lint-imports`` holds
the order (the contracts are in ``pyproject.toml``).
"""
