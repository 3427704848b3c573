"""What a folder holds, for the tests of commands that write folders (``ledger site build``):
``tree(folder)`` compares byte for byte and shows links as links."""

from __future__ import annotations

import os
from pathlib import Path


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every file under ``folder`` by its path inside it (its bytes), each symbolic link as
    ``-> target`` (never followed; a link to a folder is not entered); {} when there is no
    folder."""
    found: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            inside = str(path.relative_to(folder))
            if path.is_symlink():
                found[inside] = f"-> {os.readlink(path)}"
            elif path.is_file():
                found[inside] = path.read_bytes()
    return found
