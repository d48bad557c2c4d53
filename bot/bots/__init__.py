"""How a bot chooses its move, outside the table service.

- :mod:`.choosers`: the chooser protocol and the engine's easy, normal and hard bots.
- :mod:`.pool`: the same choosers (and hints) in worker processes, so no search runs in the
  process that answers Discord.
"""
