"""The players, games and events as recorded: registering players (``players``), finding the
player a command names by id, FIDE id or name (``player_refs``) or a file names (``matching``),
players as shown (``player_views``), recording games (``games``) once (``game_keys``: the
natural key, one game a round, one game a day for a pair), placing them in events and listing
events (``events``), games as listed (``game_views``), likely duplicates (``lookalikes``),
and players and events by a part of their name (``search``, for the pickers).

May call: core, close.
"""
