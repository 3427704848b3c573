"""What every use case stands on: opening a ledger and running one transaction (``session``),
writing the audit log (``audit``), the facts as of a change and their earlier values
(``facts``), work on a whole period or file at once (``bulk``), and the date today
(``clock``).

May call: nothing (only ``ledger.db``, ``ledger.domain``, ``ledger.errors``).
"""
