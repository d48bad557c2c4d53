"""The custom_id format: round trip, limits, and refusal of crafted ids."""

from __future__ import annotations

import re

import pytest

from bot.discord_ui.custom_ids import (
    MAX_CUSTOM_ID,
    TEMPLATE,
    BadCustomId,
    ControlId,
    control_id,
    parse_control_id,
)


def _rest(custom_id: str) -> str:
    match = re.fullmatch(TEMPLATE, custom_id)
    assert match is not None
    return match["rest"]


def test_round_trip_carries_table_version_action_and_arguments() -> None:
    text = control_id(123, 45, "mv", "X=7", 12)
    assert text == "t:123:v:45:mv:X=7:12"
    parsed = parse_control_id(_rest(text))
    assert parsed == ControlId(123, 45, "mv", ("X=7", "12"))
    assert parsed.int_arg(1) == 12


@pytest.mark.parametrize(
    "crafted",
    ["t:abc", "t:1:v:x:hand", "t:1:v:2:", "t:1:v:2:HAND", "t:1:2:hand", "t:1:v:2:mv:a:b:c:d:e"],
)
def test_crafted_ids_are_refused(crafted: str) -> None:
    with pytest.raises(BadCustomId):
        parse_control_id(_rest(crafted))


def test_non_numeric_argument_is_refused() -> None:
    parsed = parse_control_id(_rest("t:1:v:2:card:x"))
    with pytest.raises(BadCustomId):
        parsed.int_arg(0)
    with pytest.raises(BadCustomId):
        parsed.arg(3)


def test_ids_stay_within_discords_limit() -> None:
    longest = control_id(2**63 - 1, 999_999_999, "fig", 999, 270, 99)
    assert len(longest) <= MAX_CUSTOM_ID


def test_a_parsed_id_longer_than_discord_allows_still_prints() -> None:
    # Discord never sends more than 100 characters, but a crafted id is only parsed, and
    # logging it (or naming it in a refusal) must not raise.
    parsed = parse_control_id(_rest(f"t:{2**63 - 1}:v:999999999:hand:{'a' * 40}:{'b' * 40}"))
    assert len(str(parsed)) > MAX_CUSTOM_ID
    with pytest.raises(ValueError, match="too long"):
        control_id(1, 1, "mv", "a" * 40, "b" * 40, "c" * 40)
