"""Results submitted on the web (``ledger serve``, issue 23) and their review: a reporter's file
stored as submitted and checked at once by the import's own readers and checks (``checking``:
errors, warnings an officer ticks, notes; a corrected file of an accepted event as ``import
--replace``'s difference), the reporter's and the officer's use cases
(``submissions``: submit, resubmit, withdraw, list, show, accept, reject), and the effect of
accepting one on the open period (``preview``). Games typed in the web's form (``typed``) are
a submission of format ``form``, read as the CSV of games by the same path (``forms``). A
pending submission is never rated: its games enter the ledger only when accepted, by the
import's write path (``imports.games.import_games``).

May call: core, close, register, imports, corrections.
"""
