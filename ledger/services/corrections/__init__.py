"""Correcting the facts openly (docs/CORRECTIONS.md): games voided and corrected (``games``),
players edited (``player_edit``) and merged (``merge``), a file re-imported with ``--replace``
(``replace``), events renamed, merged and voided (``events``), and how each correction of a
closed period takes effect (``effects``).

May call: core, close, register, imports.
"""
