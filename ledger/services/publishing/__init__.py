"""What the ledger shows: rating lists and histories (``lists``, ``history_summary``), period
and event reports (``reports``, ``event_reports``), the website (``site``, ``site_files``),
exports (``exports``), performance ratings and norms (``performance``), what-if
(``whatif``), the calculators (``calc``), and where a report may be written
(``output_files``). Read only.

May call: core, close, register.
"""
