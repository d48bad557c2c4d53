"""The terminal front end: the same table service as Discord, at a keyboard.

- :mod:`.play`: ``poeppel play`` (hot seat, bots, save and resume, images to a folder).
- :mod:`.record_play`: ``poeppel play --load``, a downloaded game record told move by move.
- :mod:`.ratings_cli`: ``poeppel rebuild-ratings``.
"""
