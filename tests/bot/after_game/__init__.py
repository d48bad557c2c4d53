"""Tests of bot/after_game/."""
