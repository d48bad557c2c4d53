"""Tests of bot/console/."""
