"""Race boards read on a phone: names, the last action in words beside its card, the home
lane forking where it starts, the winner, the guard-ring legend, no line cut short."""

from __future__ import annotations

import math

import pytest

import engine.dog as dog
import engine.tock as tock
from i18n.events import event_text
from renderer import clear_caches, render_board
from renderer.race_layout import layout_for
from renderer.samples import race_position
from tests.renderer.pixels import decode, recorded_texts
from tests.renderer.views import race_view


def drawn_texts(view, **kwargs) -> tuple[list[str], int]:  # type: ignore[no-untyped-def]
    """(every text drawn on the board of ``view``, the image height)."""
    clear_caches()
    with recorded_texts() as drawn:
        png = render_board(view, **kwargs)
    return [text for text, _ in drawn], decode(png).height


@pytest.mark.parametrize(("game", "players"), [("tock", 4), ("tock", 6), ("dog", 4), ("dog", 6)])
def test_home_lane_forks_off_the_branch_field(game: str, players: int) -> None:
    """C-2.4: pawns step into ``hs.1`` from the branch field. The lane leaves the ring beside
    that field, so neither it nor its neighbour lines up with the lane like a fifth slot."""
    layout = layout_for(race_view(game, players))
    for seat in layout.seats:
        branch = layout.branch_field(seat)
        first, last = layout.homes[seat][0], layout.homes[seat][-1]
        lane = math.atan2(last[1] - first[1], last[0] - first[0])
        for field in (branch, branch - 1, branch + 1):
            x, y = layout.ring[field % layout.ring_size]
            towards = math.atan2(first[1] - y, first[0] - x)
            off_line = abs(math.remainder(towards - lane, math.tau))
            assert off_line > 0.15, (seat, field)
        nearest = min(range(layout.ring_size), key=lambda i: math.dist(layout.ring[i], first))
        assert nearest in (branch, (branch + 1) % layout.ring_size)


def test_caption_is_the_event_sentence_beside_the_played_card() -> None:
    _, view = race_position(tock, 4, {"game_type": "2v2"}, seed=7, steps=9)
    play = next(e for e in view["events"] if e["kind"] == "play")
    sentence = event_text(play, "de", game="tock")
    texts, _ = drawn_texts(view, locale="de")
    caption = " ".join(texts)
    assert " ".join(sentence.split()[:3]) in caption
    card = str(play["data"]["card"]).split("=")[-1]
    assert card in texts or {"J": "B", "Q": "D", "K": "K", "A": "A"}.get(card) in texts


def test_players_are_named_in_their_panels_and_bots_as_bots() -> None:
    view = race_view("dog", 4)
    texts, _ = drawn_texts(view, names=["Anna", "Bence", "Bot 3 (hard)", "Dóra"])
    for name in ("Anna", "Bence", "Bot 3 (hard)", "Dóra"):
        assert name in texts
    texts, _ = drawn_texts(view)
    assert "Red" in texts


def test_the_guard_ring_is_explained_when_a_pawn_is_guarded() -> None:
    plain = race_view("tock", 4, pawns={"0": ["r5"]})
    guarded = race_view("tock", 4, pawns={"0": ["r0*"]})
    plain_texts, plain_height = drawn_texts(plain)
    guarded_texts, guarded_height = drawn_texts(guarded)
    legend = [text for text in guarded_texts if text not in plain_texts]
    assert any("protected" in text for text in legend)
    assert guarded_height > plain_height


@pytest.mark.parametrize("module", [tock, dog], ids=["tock", "dog"])
def test_the_winners_panels_say_winner(module) -> None:  # type: ignore[no-untyped-def]
    _, view = race_position(module, 4, {}, seed=7, steps=-1)
    texts, _ = drawn_texts(view, names=["A1", "B2", "C3", "D4"])
    tagged = [text for text in texts if text.startswith("winner")]
    assert len(tagged) == len(view["winners"]) >= 1


@pytest.mark.parametrize("locale", ["en", "de", "hu"])
def test_no_line_of_a_race_board_is_cut_short(locale: str) -> None:
    view = race_view("dog", 4, discard=["10"], draw=12, dealer=1, banned=True, turn=0, to_act=[0])
    texts, _ = drawn_texts(view, locale=locale, names=["Anna", "Bence", "Chloé", "Dóra"])
    assert not [text for text in texts if text.endswith("…")]
