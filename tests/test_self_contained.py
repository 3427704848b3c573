"""The repository stands on its own (issue 9): a fresh clone runs its tests, examples and README
commands with nothing beside it. No file of tests/, examples/, benchmarks/, .ci/ or the README
names the team's folder outside the repository, and no Python file there climbs above the root."""

from __future__ import annotations

import re
from pathlib import Path

from data_files import FOLDERS

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["tests", "examples", "benchmarks", ".ci", "README.md"]
#: Built, so that this file does not hold the text it looks for.
OUTSIDE = "..".__add__("/shared")
#: ``Path(__file__)`` followed by ``.parent`` / ``.parents[N]`` steps (each one level up).
CLIMB = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?((?:\.parents?(?:\[\d+\])?)+)")
STEP = re.compile(r"\.parents\[(\d+)\]|\.parent\b")


def scanned_files() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        files += [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
    return [p for p in files if "__pycache__" not in p.parts]


def text_of(path: Path) -> str | None:
    """The file as text, or None for a binary file (a NUL byte, or not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def levels_up(steps: str) -> int:
    """How many directories ``.parent`` / ``.parents[N]`` steps climb from the file itself."""
    return sum(int(m.group(1)) + 1 if m.group(1) is not None else 1 for m in STEP.finditer(steps))


def test_the_scan_sees_the_files_it_guards() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    assert {"README.md", ".ci/run", "tests/conftest.py", "examples/club-season.sh"} <= names


def test_nothing_names_the_folder_outside_the_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}"
             for p in scanned_files() if (text := text_of(p)) is not None
             for n, line in enumerate(text.splitlines(), 1) if OUTSIDE in line]
    assert found == [], f"{OUTSIDE} is named in:\n" + "\n".join(found)


#: The team's documents outside the repository, as a docstring or a README would cite them; the
#: repository's own copies are docs/RULES.md, docs/DESIGN.md and docs/CASES.md. Built, as above.
CITED = re.compile("shared/".__add__(r"(?:RULES\.md|DESIGN\.md|cases|data)\b"))


def test_no_file_cites_the_documents_outside_the_repository() -> None:
    """A reader of a clone has docs/, not the team's folder: every citation of the rules, the
    design, the cases or the data names the repository's copy."""
    files = scanned_files() + [p for top in ("ledger", "docs", "migrations")
                               for p in sorted((ROOT / top).rglob("*")) if p.is_file()
                               and "__pycache__" not in p.parts]
    found = [f"{p.relative_to(ROOT)}:{n}: {m.group(0)}"
             for p in files if (text := text_of(p)) is not None
             for n, line in enumerate(text.splitlines(), 1) for m in CITED.finditer(line)]
    assert found == [], "cited outside the repository:\n" + "\n".join(found)


def test_no_python_file_climbs_above_the_repository() -> None:
    found = []
    for p in scanned_files():
        if p.suffix != ".py":
            continue
        depth = len(p.relative_to(ROOT).parts) - 1  # the file's directories below the root
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for m in CLIMB.finditer(line):
                if levels_up(m.group(1)) - 1 > depth:
                    found.append(f"{p.relative_to(ROOT)}:{n}: {m.group(0)}")
            if re.search(r"/\s*[\"']shared[\"']", line):
                found.append(f"{p.relative_to(ROOT)}:{n}: a path through 'shared'")
    assert found == [], "paths outside the repository:\n" + "\n".join(found)


def test_each_data_file_is_in_one_folder_and_named_in_its_readme() -> None:
    """Every data file's source and licence are given beside it (the README.md of its folder), and
    no file is kept twice."""
    names = {folder: {p.name for p in folder.iterdir() if p.is_file()} - {"README.md"}
             for folder in FOLDERS}
    assert all(names.values())
    test_names, example_names = names.values()
    assert test_names & example_names == set()
    for folder, files in names.items():
        readme = (folder / "README.md").read_text(encoding="utf-8")
        assert [f for f in sorted(files) if f"`{f}`" not in readme] == [], folder


def test_climb_arithmetic() -> None:
    assert levels_up(".parent") == 1
    assert levels_up(".parents[2].parent") == 4
    assert levels_up(".resolve().parents[1]") == 2
