"""Use cases, grouped by capability. Each use case runs in one transaction and is the only place
database rows become domain values; the faces (``ledger.cli``) call them and nothing else does.

The groups, each a package whose ``__init__`` says what it owns and which groups it may call
(its ``May call:`` line; ``tests/test_layers.py`` holds every module to it):

- ``core``: what every use case stands on (the session and its transaction, the audit log's
  writing, the facts as of a change, bulk work).
- ``close``: rating periods: the rated games and player states the rules read, the rating, the
  close, its revisions and list snapshots, late results, carried corrections, re-rating.
- ``register``: the players, games and events as recorded, and finding them by name.
- ``imports``: files of games, the players register, FIDE rating lists.
- ``corrections``: void, correct, edit, merge, replace, and how each takes effect.
- ``submissions``: results submitted on the web (``ledger serve``), checked by the import,
  reviewed by an officer, recorded by the import when accepted.
- ``publishing``: what the ledger shows: lists, histories, reports, the site, exports,
  performance, what-if, the calculators, and where a report may be written.
- ``accounts``: the web's users, their passwords and sessions, logging in and its throttle.
- ``admin``: the ledger itself: creating and upgrading it, the audit log read back, backup,
  copy, ``db check``.

Arrows point down only: ``admin`` -> ``publishing`` -> ``register`` -> ``close`` -> ``core``,
``corrections`` -> ``imports`` -> ``register``, ``submissions`` -> ``imports``, ``accounts``
-> ``core``; groups import each other's modules by their full name
(``ledger.services.close.rating``).
"""
