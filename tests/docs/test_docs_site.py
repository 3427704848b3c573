"""The documentation site (issue 21 §7): ``mkdocs build --strict`` over docs/ passes, so that
no page is left out of the navigation, and no link or anchor between pages is broken (mkdocs.yml
makes each of those a warning, and --strict fails on any warning); and the README's map of the
docs, which the site does not build, links pages that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _nav_files(nav: object) -> list[str]:
    """Every page file the ``nav`` of mkdocs.yml names, in order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [f for item in nav for f in _nav_files(item)]
    if isinstance(nav, dict):
        return [f for value in nav.values() for f in _nav_files(value)]
    return []


def test_mkdocs_build_strict_passes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    # NO_MKDOCS_2_WARNING: Material's banner about its own future, not a warning about the docs.
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    guide = (site / "guide" / "index.html").read_text(encoding="utf-8")
    assert "Your month as club secretary" in guide
    commands = (site / "commands" / "index.html").read_text(encoding="utf-8")
    assert "ledger player add" in commands


def test_the_navigation_holds_every_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_files(config["nav"])
    assert len(nav) == len(set(nav))
    assert sorted(nav) == sorted(p.name for p in DOCS.glob("*.md"))


#: A Markdown link's target: ``[text](target)``.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_map_links_every_page_and_only_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in LINK.findall(readme) if "://" not in t]
    missing = [t for t in targets if not (ROOT / t.split("#")[0]).is_file()]
    assert missing == []
    linked = {t.split("#")[0] for t in targets}
    # index.md is the site's home page: the README is the repository's.
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md")} - {"docs/index.md"}
    assert sorted(pages - linked) == []
    assert "docs/guide.md" in linked
