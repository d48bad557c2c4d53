"""Tests of bot/service/."""
