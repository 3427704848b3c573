"""The players, games and events as recorded: registering players and finding them by id, FIDE
id or name (``players``, ``matching``), recording games (``games``) once (``game_keys``: the
natural key, one game a round, one game a day for a pair), placing them in events and listing
events (``events``), games as listed (``game_views``), and likely duplicates (``lookalikes``).

May call: core, close.
"""
