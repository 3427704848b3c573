"""The players of a FIDE XML rating list (pure): each ``<player>`` element's children as cells.

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"): ``<playerslist>`` of ``<player>``
elements (``fideid, name, country, sex, title, w_title, o_title, foa_title, rating, games, k,
rapid_*, blitz_*, birthday, flag``), parsed with ``defusedxml`` (no entity expansion, no DTD
tricks, no external references). Nothing here raises on bad data: every fault is a
:class:`~ledger.errors.Problem`.
"""

from __future__ import annotations

import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from dataclasses import dataclass

import defusedxml
import defusedxml.sax

from ledger.errors import Problem
from ledger.formats.fide_list_text import Cell, ending_line

__all__ = ["XmlRecords", "read_xml"]

# The XML list's elements -> record fields; pool fields by prefix.
_XML_IDENTITY = {"fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
                 "title": "title", "w_title": "w_title", "o_title": "o_title",
                 "foa_title": "foa_title", "birthday": "birth_year", "flag": "flag"}
_XML_POOL_PREFIX: dict[str, str] = {"standard": "", "rapid": "rapid_", "blitz": "blitz_"}


class _PlayersHandler(xml.sax.handler.ContentHandler):
    """Collects each ``<player>``'s child elements as (text, line)."""

    def __init__(self) -> None:
        super().__init__()
        self.locator: xml.sax.xmlreader.Locator | None = None
        self.root: str | None = None
        self.records: list[tuple[int, dict[str, tuple[str, int]]]] = []
        self._player: dict[str, tuple[str, int]] | None = None
        self._player_line = 0
        self._element: str | None = None
        self._element_line = 0
        self._text: list[str] = []

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:  # noqa: N802
        self.locator = locator

    def _line(self) -> int:
        return (self.locator.getLineNumber() or 0) if self.locator is not None else 0

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:  # noqa: N802
        if self.root is None:
            self.root = name
        elif name == "player" and self._player is None:
            self._player, self._player_line = {}, self._line()
        elif self._player is not None and self._element is None:
            self._element, self._element_line, self._text = name, self._line(), []

    def characters(self, content: str) -> None:
        if self._element is not None:
            self._text.append(content)

    def endElement(self, name: str) -> None:  # noqa: N802
        if self._player is not None and name == self._element:
            self._player[name] = ("".join(self._text), self._element_line)
            self._element = None
        elif self._player is not None and name == "player" and self._element is None:
            self.records.append((self._player_line, self._player))
            self._player = None


@dataclass(frozen=True)
class XmlRecords:
    """The ``<player>`` elements of an XML list: ``players`` as (1-based line of the element,
    cells by record field) for the pool read; ``has_foa``: any ``foa_title`` element; ``lines``:
    lines in the file; ``problems``: why the file cannot be read (then ``players`` is empty)."""

    players: list[tuple[int, dict[str, Cell]]]
    has_foa: bool
    lines: int
    problems: list[Problem]


def read_xml(data: bytes, file: str, pool: str) -> XmlRecords:
    """The player elements of an XML list (``<playerslist>``), with the rating, games and K of
    ``pool`` (``standard``, ``rapid`` or ``blitz``). XML that is not well-formed, that
    ``defusedxml`` refuses (entities, DTDs, external references) or whose root is another element
    gives a problem and no players."""
    handler = _PlayersHandler()
    problems: list[Problem] = []
    lines = ending_line(data)
    try:
        defusedxml.sax.parseString(data, handler)
    except xml.sax.SAXParseException as exc:
        problems.append(Problem(file, exc.getLineNumber(), f"XML (column {(exc.getColumnNumber() or 0) + 1})",
                                f"not well-formed XML: {exc.getMessage()}"))
    except (xml.sax.SAXException, defusedxml.DefusedXmlException, ValueError, LookupError) as exc:
        problems.append(Problem(file, handler._line() or None, "XML", f"refused: {exc}"))
    if problems:
        return XmlRecords([], False, lines, problems)
    if handler.root != "playerslist":
        problems.append(Problem(file, 1, "XML", f"the root element is <{handler.root}>, not "
                                "<playerslist>: not a FIDE XML rating list"))
        return XmlRecords([], False, lines, problems)
    prefix = _XML_POOL_PREFIX[pool]
    wanted = dict(_XML_IDENTITY) | {f"{prefix}{what}": what for what in ("rating", "games", "k")}
    has_foa = False
    players: list[tuple[int, dict[str, Cell]]] = []
    for line, elements in handler.records:
        has_foa = has_foa or "foa_title" in elements
        players.append((line, {key: Cell(elements[tag][0].strip(), elements[tag][1], tag)
                               for tag, key in wanted.items() if tag in elements}))
    return XmlRecords(players, has_foa, lines, problems)
