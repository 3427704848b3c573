"""The ledger as a whole: creating and upgrading it (``setup``), the audit log read back
(``audit_log``), backups (``backup``), copies to another database (``copy``) and ``db check``
(``recompute``).

May call: core, close, register, publishing.
"""
