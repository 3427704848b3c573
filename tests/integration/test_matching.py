"""Matching a file's player to a ledger player: FIDE id, then name and birth year (issue 3)."""

from __future__ import annotations

from sqlalchemy import Engine

from ledger.services.core.session import transaction
from ledger.services.register.matching import Match, PlayerIndex
from ledger.services.register.players import NewPlayer, register


def _ledger(engine: Engine) -> None:
    with transaction(engine) as session:
        for p in (NewPlayer("Smith, John", fide_id=1001, birth_year=1980, rating=1800),
                  NewPlayer("Smith, John", birth_year=1995, rating=1700),
                  NewPlayer("Åberg, Nils", birth_year=2001, rating=1600),
                  NewPlayer("Jones, Ann", fide_id=2002, rating=1900)):
            register(session, p, source="test", effective_from=None)


def test_fide_id_decides_before_the_name(engine: Engine) -> None:
    _ledger(engine)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        # The file's name is spelled differently, but FIDE id 2002 is Jones.
        found = index.match("Jones, Anne", 2002, None)
        assert found.player is not None and found.player.name == "Jones, Ann"


def test_name_and_birth_year_tell_namesakes_apart(engine: Engine) -> None:
    _ledger(engine)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        young = index.match("SMITH, JOHN", None, 1995)
        assert young.player is not None and young.player.birth_year == 1995
        # Without a birth year or FIDE id, two Smiths: an error naming both candidates.
        both = index.match("Smith, John")
        assert both.player is None and both.error is not None
        assert "Smith, John (#1, FIDE 1001, born 1980); Smith, John (#2, FIDE -, born 1995)" in (
            both.error)
        # A third birth year is nobody in the ledger.
        assert index.match("Smith, John", None, 1960).player is None
        assert index.match("Smith, John", None, 1960).error is None


def test_case_folding_beyond_ascii(engine: Engine) -> None:
    _ledger(engine)
    with transaction(engine, write=False) as session:
        found = PlayerIndex.load(session).match("ÅBERG,  NILS", None, 2001)
        assert found.player is not None and found.player.name == "Åberg, Nils"


def test_a_namesake_with_another_fide_id_is_an_error_not_a_match(engine: Engine) -> None:
    _ledger(engine)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        clash = index.match("Jones, Ann", 9999, None)
        assert clash.player is None
        assert clash.error == "'Jones, Ann' is in the ledger with FIDE id 2002; the file says 9999"
        # FIDE id 3003 with Smith's name born 1995: the 1995 Smith has no FIDE id yet -> match.
        smith = index.match("Smith, John", 3003, 1995)
        assert smith.player is not None and smith.player.birth_year == 1995


def test_registered_players_join_the_index(engine: Engine) -> None:
    with transaction(engine) as session:
        index = PlayerIndex.load(session)
        assert index.match("New, Player", 4004).player is None
        player = register(session, NewPlayer("New, Player", fide_id=4004), source="t",
                          effective_from=None)
        index.add(player)
        assert index.match("new, player").player is player


def test_similar_names_are_a_hint_never_a_match(engine: Engine) -> None:
    # ledger: #1 Smith, John (FIDE 1001), #2 Smith, John, #3 Åberg, Nils, #4 Jones, Ann (FIDE 2002)
    _ledger(engine)
    with transaction(engine) as session:
        index = PlayerIndex.load(session)
        # a word of the name (any case), or the start of it; exact namesakes are not "similar"
        assert [p.id for p in index.similar("smith")[0]] == [1, 2]
        assert [p.id for p in index.similar("Jones A")[0]] == [4]       # starts "jones ann"
        assert [p.id for p in index.similar("Ann Jones")[0]] == [4]     # every word is Jones's
        assert [p.id for p in index.similar("Åberg")[0]] == [3]
        assert index.similar("Jones, Ann") == ([], 0)
        assert index.similar("Ann Smith") == ([], 0)                    # "ann" is no Smith's
        assert [p.id for p in index.similar("Jon")[0]] == [4]           # "jones ann" starts so
        assert index.similar("ohn") == ([], 0)                          # inside a word: no
        assert index.match("Smith").player is None                      # matching is unchanged
        # up to `limit` shown, by id, and how many in all
        assert [p.id for p in index.similar("Smith", limit=1)[0]] == [1]
        assert index.similar("Smith", limit=1)[1] == 2
        # a player registered later joins the hints
        index.add(register(session, NewPlayer("Smithson, Ted"), source="test",
                           effective_from=None))
        assert [p.name for p in index.similar("smith")[0]] == [
            "Smith, John", "Smith, John", "Smithson, Ted"]


def test_accents_and_case_are_no_difference(engine: Engine) -> None:
    # ledger: #1 Smith, John, #2 Smith, John, #3 Åberg, Nils, #4 Jones, Ann, #5 Ó Briain, Seán
    _ledger(engine)
    with transaction(engine) as session:
        register(session, NewPlayer("Ó Briain, Seán", birth_year=1990), source="test",
                 effective_from=None)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        for written in ("O Briain, Sean", "ó briain, SEAN", "Ó  BRIAIN,Seán", "O-Briain, Sean"):
            found = index.match(written, None, 1990)
            assert found.player is not None and found.player.id == 5, written
        # an apostrophe joins: O'Briain is OBriain, another name than O Briain
        assert index.match("O'Briain, Sean", None, 1990) == Match()
        aberg = index.match("Aberg, Nils")
        assert aberg.player is not None and aberg.player.name == "Åberg, Nils"


def test_the_other_word_order_matches_when_unambiguous(engine: Engine) -> None:
    _ledger(engine)
    with transaction(engine) as session:
        for p in (NewPlayer("O'Brien, Kevin", fide_id=5005, birth_year=1970),
                  NewPlayer("Mary Walsh", birth_year=1985)):
            register(session, p, source="test", effective_from=None)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        kevin = index.match("Kevin O'Brien")
        assert kevin.player is not None and kevin.player.id == 5
        mary = index.match("Walsh, Mary", None, 1985)       # and the other way round
        assert mary.player is not None and mary.player.id == 6
        assert index.match("Walsh, Mary", None, 1960).player is None   # another birth year
        # "John Smith" is either Smith, John: ambiguous, an error naming both
        both = index.match("John Smith")
        assert both.player is None and both.error == (
            "'John Smith' matches several players: Smith, John (#1, FIDE 1001, born 1980); Smith, "
            "John (#2, FIDE -, born 1995); give a FIDE id or a birth year to tell them apart")
        young = index.match("John Smith", None, 1995)
        assert young.player is not None and young.player.id == 2
        # a FIDE id the ledger gives another player decides, whatever the order
        assert index.match("Kevin O'Brien", 2002).player is not None
        assert index.match("Kevin O'Brien", 2002).player.name == "Jones, Ann"  # type: ignore[union-attr]


def test_an_exact_key_comes_before_the_other_word_order(engine: Engine) -> None:
    with transaction(engine) as session:
        for p in (NewPlayer("Lee, Grant", birth_year=1990),
                  NewPlayer("Grant, Lee", birth_year=1960)):
            register(session, p, source="test", effective_from=None)
    with transaction(engine, write=False) as session:
        index = PlayerIndex.load(session)
        # "Grant, Lee" is #2 by its key, "Lee, Grant" #1; without a comma "Lee Grant" is Lee of
        # the Grants (#2) written name first, or Grant of the Lees (#1) written as tournament
        # files write names, surname first: both, and so is "Grant Lee"
        assert [p.id for p in index.named("Grant, Lee")] == [2]
        assert [p.id for p in index.named("Lee Grant")] == [1, 2]
        assert [p.id for p in index.named("Grant Lee")] == [2, 1]
        # their birth years tell them apart
        assert index.match("Lee Grant", None, 1960).player is not None
        assert index.match("Lee Grant", None, 1960).player.id == 2  # type: ignore[union-attr]
        assert "matches several players" in (index.match("Lee Grant").error or "")
