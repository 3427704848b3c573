"""Importing files, all or nothing: files of games (``games``: read by ``game_files`` from an
``input_files`` stream, their pools by ``game_pools``, players matched by ``matching``, placed
by ``placing``, checked by ``checks``, written by ``writing``, recalled by ``written``, reported
by ``report``), the players register (``players``) and FIDE rating lists (``fide_lists``: their
players matched, registered and updated, with their list ratings, by ``fide_list_players``,
reported in ``fide_list_report``), and the integrity flags of a submission's games
(``integrity``, read only: ``rules.integrity``'s checks).

May call: core, close, register.
"""
