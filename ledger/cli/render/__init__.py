"""Rendering: a service's result as text for people (Rich tables, lines) or as JSON for
programs, errors and notes on stderr. Each command module imports the renderers it needs.

- ``output``: the plumbing every renderer shares: the consoles, ``say`` / ``aside`` /
  ``error`` / ``notes`` / ``problems``, JSON on stdout, the words of a count
- ``tables``: ``PlainTable``, every table of the CLI (plain cells, columns dropped by priority)
- ``values``: exact values as JSON numbers and fixed decimals, and the fast JSON writer
- ``players``: ``player show``, ``player add``, ``player list`` (FIDE's printed list ratings too)
- ``games``: ``game list``, ``event list``
- ``imports``: ``ledger import``: a file of games, a FIDE rating list, a register of players
- ``close``: ``period close``; ``close_json``: its ``--json`` document, streamed (loaded for
  ``--json`` only: it needs the close's rules)
- ``lists``: a published rating list (``ledger list``)
- ``history``: ``ledger history`` (periods, peak, sparkline, chart)
- ``life``: the life of a rating: a pool in progress, an initial rating's computation, drops
- ``reports``: ``period report``
- ``revisions``: ``period list``, ``period reopen``, ``period rerate``, ``audit``, ``db check``,
  ``db backup``
- ``corrections``: ``game add``, ``game void``, ``game correct``, ``import --replace``,
  ``player edit``, ``player merge``, ``player correct-rating``
- ``lookup``: ``performance``, ``whatif``
- ``calc``: ``ledger calc``
- ``site``: ``site build``, ``event show``

This ``__init__`` imports nothing: a command loads only the renderers it names (``ledger calc``:
``calc`` and the plumbing, never the close's rules; start-up, issue 14).
"""
