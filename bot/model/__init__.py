"""Values and pure rules of a table, with no I/O: what every other part of ``bot`` shares.

- :mod:`.table`: a table's record, seats, log entries, phases and the keyed refusals.
- :mod:`.effects`: what an operation tells whom (public and private updates, pings).
- :mod:`.history`: what a reader may see of a table's log (picks stay secret, C-10.5).
- :mod:`.game_log`: a stored log entry applied to an engine state.
- :mod:`.clock`: wall time, real or moved by tests.
"""
