"""Rating periods (FIDE B.02 §7-§8): the rated games with the ratings in force (``rated_games``),
players' states on any list (``state``), unrated players' pools (``pools``) and their way to a
rating (``life``), late results (``late``), carried corrections (``carried``), the one rating
code (``rating``), the close and the closed periods (``periods``) and what a close did
(``close_report``), which revision is current (``revisions``), the stored per-game audit
(``period_audits``) and list snapshots (``snapshots``), and reopening and re-rating
(``rerate``: a re-rating is the close run again, and recording a late game with ``--rerate``
uses it, so it lives here, not in ``corrections``).

May call: core.
"""
