"""Carcassonne images: tiles drawn from the tile facts, the board, and the choice images."""
