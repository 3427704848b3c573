"""``ledger verify``: a bundle's list recounted from the bundle alone (issue 24; docs/VERIFY.md
"Checking a list"). Imports only the rules and the formats (``tests/test_layers.py``): no
database layer, no SQLAlchemy, so it runs where no ledger is.

``verify`` reads the bundle (``formats.bundle``), recounts the list with the reference rules
(``rules.recount``), compares every row with the manifest's (player, field, the bundle's value,
the recounted one), each fact with its digest in the manifest, the manifest with its digest and
its list digest with its rows, and with a public key the signature (``formats.signatures``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ledger.domain import count
from ledger.formats import bundle as bundles
from ledger.formats import signatures
from ledger.formats.canonical import digest
from ledger.rules.recount import ROW_FIELDS, recount


@dataclass(frozen=True)
class Difference:
    """One value of a list row that the bundle and the recount do not agree on (``player``:
    the player id; ``field``: a ``ROW_FIELDS`` name or ``on the list``)."""

    player: int
    name: str
    field: str
    published: Any
    recounted: Any

    def __str__(self) -> str:
        return (f"player {self.player} ({self.name}): {self.field}: bundle {self.published!r}, "
                f"recounted {self.recounted!r}")


@dataclass
class Verdict:
    """What ``verify`` found: the list's key, its rows, the manifest's ``digest`` and the
    ``list_digest`` of its rows (``formats.bundle.list_digest``: the digest the ledger stores
    for the list revision and its site shows), and every problem (``ok``: none)."""

    file: str
    period: str
    pool: str
    revision: int
    rows: int
    digest: str
    list_digest: str
    differences: list[Difference] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    signed_by: str | None = None

    @property
    def ok(self) -> bool:
        """True when every row, every fact digest, the manifest digest (and the signature when
        a key was given) agree."""
        return not self.differences and not self.problems

    def line(self) -> str:
        """The one-line verdict."""
        what = (f"{self.file}: the {self.pool} list of {self.period} (revision {self.revision}, "
                f"{self.rows} rows, digest {self.digest[:16]}, list digest {self.list_digest})")
        if self.ok:
            signed = f", signed by {self.signed_by}" if self.signed_by else ""
            return f"{what}: verified, every row recounted from the bundle{signed}"
        rows = len({d.player for d in self.differences})
        beyond = len({d.player for d in self.differences if d.field != "rank"})
        found = [f"{count(rows, 'row')} differ{'s' if rows == 1 else ''}"
                 + (f" ({beyond} beyond their rank)" if rows and beyond != rows else "")]
        if self.problems:
            found.append(count(len(self.problems), "other problem"))
        return f"{what}: NOT verified, {', '.join(found)}"


def verify(path: Path, key: Path | None = None) -> Verdict:
    """Verify the bundle in ``path`` (and its signature by the public key in ``key``). Raises
    ``formats.bundle.BundleError`` (file and field named) for a file that is not a bundle,
    ``formats.signatures.KeyFileError`` for a key file that cannot be used."""
    public = signatures.load_public(key) if key is not None else None
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise bundles.BundleError(f"{path}: cannot read: {exc.strerror or exc}") from None
    read = bundles.read(data, str(path))
    manifest = read.manifest
    verdict = Verdict(str(path), str(read.period), read.pool, read.revision,
                      len(manifest["rows"]), str(manifest.get("digest")),
                      bundles.list_digest(manifest["rows"]))
    computed = recount(read.period, read.pool, read.edition, read.games, read.players,
                       read.carried)
    verdict.differences = compare(manifest["rows"], computed)
    verdict.problems = fact_problems(read.raw)
    if manifest.get("digest") != bundles.manifest_digest(manifest):
        verdict.problems.append(f"manifest.digest: {manifest.get('digest')!r} is not the digest "
                                f"of the manifest ({bundles.manifest_digest(manifest)})")
    if "list_digest" in manifest and manifest["list_digest"] != verdict.list_digest:
        verdict.problems.append(f"manifest.list_digest: {manifest['list_digest']!r} is not the "
                                f"digest of the manifest's rows ({verdict.list_digest})")
    if public is not None:
        problem = signatures.check(manifest, read.raw.get("signature"), public)
        if problem is None:
            verdict.signed_by = read.raw["signature"]["public_key"]
        else:
            verdict.problems.append(problem)
    return verdict


def compare(published: list[dict[str, Any]], computed: list[dict[str, Any]]) -> list[Difference]:
    """Every difference between the ``published`` rows and the ``computed`` ones, matched by
    player id: a field that differs, or a player on one list only; those beyond a rank first
    (a changed rating moves every rank between its two places: the cause leads), each part by
    player id, then field."""
    theirs = {row["player_id"]: row for row in published}
    ours = {row["player_id"]: row for row in computed}
    found = []
    for pid in sorted(theirs.keys() | ours.keys()):
        a, b = theirs.get(pid), ours.get(pid)
        name = str((a or b or {}).get("name"))
        if a is None or b is None:
            found.append(Difference(pid, name, "on the list", a is not None, b is not None))
            continue
        found.extend(Difference(pid, name, f, a[f], b[f]) for f in ROW_FIELDS
                     if f != "player_id" and a[f] != b[f])
    return sorted(found, key=lambda d: d.field == "rank")  # stable: by player within each


def fact_problems(whole: dict[str, Any]) -> list[str]:
    """Each fact of the bundle whose digest is not the manifest's (or that the manifest does
    not name), and each the manifest names that the bundle lacks."""
    facts = whole["manifest"]["facts"]
    problems = []
    for kind, key, noun in (("games", "id", "game"), ("players", "id", "player"),
                            ("carried", "player", "carried correction of player")):
        listed = dict(facts.get(kind) or {})
        for record in whole[kind]:
            ident = str(record[key])
            expected = listed.pop(ident, None)
            if expected is None:
                problems.append(f"{noun} {ident}: not in the manifest's facts")
            elif digest(record) != expected:
                problems.append(f"{noun} {ident}: its digest {digest(record)[:16]} is not the "
                                f"manifest's {str(expected)[:16]}: the fact was changed")
        problems.extend(f"{noun} {ident}: in the manifest's facts, not in the bundle"
                        for ident in listed)
    return problems
