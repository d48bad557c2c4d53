"""What a finished table leaves behind, as pure values and functions (no storage, no asyncio).

- :mod:`.game_result`: the result of a game (places, scores, who reached home when).
- :mod:`.ratings`: openskill ratings per server and game, from results.
- :mod:`.replay`: a stored log replayed into the public steps spectators saw.
- :mod:`.records`: the downloadable game record (public information only).
- :mod:`.standings`: the pages of ``/leaderboard``, ``/stats`` and ``/history``.

The table service's :class:`~bot.service.results.Results` part stores and serves them.
"""
