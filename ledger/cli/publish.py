"""``ledger list --format ... --output FILE``: a published rating list in the format people read,
on stdout or into a file (written whole or not at all)."""

from __future__ import annotations

import datetime as dt
import enum
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from ledger.cli.render import lists as render_lists
from ledger.cli.render.output import count, error, say
from ledger.domain import Period, described_character, find_control_character
from ledger.errors import InvalidInput, LedgerError
from ledger.formats.rating_list import ListHeading

if TYPE_CHECKING:
    from ledger.services.publishing.lists import RatingList

#: Where the page's heading comes from when ``--club`` is not given.
CLUB_ENV = "LEDGER_CLUB"
DEFAULT_CLUB = "Rating list"


class ListFormat(enum.StrEnum):
    """The formats ``ledger list`` writes."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    TXT = "txt"
    HTML = "html"


#: ``--output`` extension -> the format written when ``--format`` is not given.
BY_EXTENSION = {".csv": ListFormat.CSV, ".json": ListFormat.JSON, ".txt": ListFormat.TXT,
                ".html": ListFormat.HTML, ".htm": ListFormat.HTML}


def choose_format(fmt: ListFormat | None, as_json: bool, output: Path | None = None) -> ListFormat:
    """``--json`` is ``--format json``; asking for both json and another format is a usage
    error (exit 2). Without either, the ``output`` file's extension decides (``list.csv`` is
    csv, ``list.html`` html ...; any other extension, or none, is a usage error naming the
    known ones), else (no ``output``) the table."""
    if as_json and fmt not in (None, ListFormat.JSON):
        error(f"format: --json and --format {fmt} contradict each other; use one")
        raise typer.Exit(2)
    if as_json:
        return ListFormat.JSON
    if fmt is None and output is not None:
        if output.suffix.lower() not in BY_EXTENSION:
            known = " ".join(BY_EXTENSION)
            error(f"--output {output}: no format is known for the extension "
                  f"{output.suffix or '(none)'}; end its name in one of {known}, or give "
                  f"--format ({', '.join(ListFormat)})")
            raise typer.Exit(2)
        return BY_EXTENSION[output.suffix.lower()]
    return fmt or ListFormat.TABLE


def club_name(club: str | None) -> str:
    """The page heading: ``--club``, else $LEDGER_CLUB, else "Rating list". Raises
    ``InvalidInput`` naming the option (or the variable) for a name holding what no one-line
    text field may (``domain.find_control_character``: an escape, a line break, a direction
    override ...), which every page would carry as it is."""
    where = "--club" if club else f"${CLUB_ENV}"
    name = (club or os.environ.get(CLUB_ENV) or DEFAULT_CLUB).strip() or DEFAULT_CLUB
    control = find_control_character(name)
    if control is not None:
        raise InvalidInput(f"{where}: holds {described_character(control.group())} at character "
                           f"{control.start() + 1}: a club's name is one line of visible text")
    return name


def list_text(rl: RatingList, fmt: ListFormat, club: str | None = None,
              digest: str | None = None) -> str:
    """The list ``rl`` written in ``fmt`` (the table as plain text, without colours); the html
    page gives ``digest``, the list's manifest digest, when given (docs/VERIFY.md)."""
    from ledger.formats import rating_list_csv, rating_list_html, rating_list_txt  # on use
    from ledger.services.publishing.json_shapes import rating_list_dict
    heading = ListHeading(Period.parse(rl.period), dt.date.fromisoformat(rl.in_force_from),
                          club_name(club), rl.pool, rl.preview, digest)
    if fmt is ListFormat.JSON:
        return json.dumps(rating_list_dict(rl), indent=2, ensure_ascii=False) + "\n"
    if fmt is ListFormat.TXT:
        try:
            return rating_list_txt.write(heading, rl.rows)
        except ValueError as exc:
            raise LedgerError(f"txt: {exc}") from None
    if fmt is ListFormat.CSV:
        return rating_list_csv.write(heading, rl.rows)
    if fmt is ListFormat.HTML:
        return rating_list_html.write(heading, rl.rows)
    buffer = io.StringIO()
    render_lists.rating_list(rl, False, Console(file=buffer, width=160, highlight=False, emoji=False,
                                                color_system=None))
    return buffer.getvalue()


def write_output(data: str | bytes, output: Path, *, ledger: str | None) -> None:
    """Write ``data`` (text as UTF-8 with its line ends as given, or bytes) to ``output`` whole:
    into a temporary file beside it, then renamed over it (keeping the replaced file's
    permissions; a new file gets what the umask allows). A link is followed (the file it
    names is replaced, the link kept); a device or pipe (``/dev/null``, ``/dev/stdout``) is
    written in place, never replaced by a file. Raises ``LedgerError`` naming the file when it
    cannot, and, writing nothing, when ``output`` is the open ``ledger`` (``--db``; None when
    none is open) or any SQLite database (``services.publishing.output_files.check_output_file``)."""
    from ledger.services.publishing.output_files import check_output_file  # the db layer: on use
    check_output_file(output, ledger)
    encoded = data.encode("utf-8") if isinstance(data, str) else data
    if output.exists() and not output.is_file():
        try:
            with open(output, "wb") as fh:
                fh.write(encoded)
        except OSError as exc:
            raise LedgerError(f"output: cannot write {output}: {exc.strerror or exc}") from None
        return
    output = Path(os.path.realpath(output)) if output.is_symlink() else output
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent or Path("."))
    except OSError as exc:
        raise LedgerError(f"output: cannot write {output}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(encoded)
        os.chmod(tmp, _mode_for(output))
        os.replace(tmp, output)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise LedgerError(f"output: cannot write {output}: {exc.strerror or exc}") from None


def _mode_for(output: Path) -> int:
    """The permissions a written file gets: those of the file it replaces, else what the
    umask allows a new file (``0o644`` under the usual umask; ``mkstemp`` alone gives ``0o600``,
    which a web server cannot read)."""
    if output.is_file():
        return output.stat().st_mode & 0o7777
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def publish(rl: RatingList, fmt: ListFormat, output: Path | None, club: str | None,
            ledger: str, digest: str | None = None, list_digest: str | None = None) -> None:
    """Print the list on stdout (the table through Rich) or write it to ``output`` (never over
    the ``ledger`` it came from: ``write_output``); ``digest``: the manifest digest, for the
    html page; ``list_digest``: the list digest, named after a written file (docs/VERIFY.md)."""
    if output is None:
        if fmt is ListFormat.TABLE:
            render_lists.rating_list(rl, False)
            return
        sys.stdout.write(list_text(rl, fmt, club, digest))
        return
    write_output(list_text(rl, fmt, club, digest), output, ledger=ledger)
    said = (f"wrote the {fmt} rating list of {rl.period}, {rl.pool} "
            f"({count(len(rl.rows), 'player')}) to {output}")
    say(said if list_digest is None else f"{said}; its list digest: {list_digest}")
