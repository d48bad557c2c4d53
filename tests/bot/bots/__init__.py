"""Tests of bot/bots/."""
