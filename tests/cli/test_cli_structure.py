"""The CLI's shape (issue 9, item 9): the shared plumbing lives in ``cli/common.py``; ``cli/app.py``
only builds the app and registers the groups, so no command module imports it and the CLI's
modules import each other without a circle."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "ledger" / "cli"


def _cli_imports(path: Path) -> set[str]:
    """The ``ledger.cli`` modules ``path`` imports (``from ledger.cli import x`` counts as x)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "ledger.cli":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("ledger.cli."):
                found.add(node.module.removeprefix("ledger.cli.").split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("ledger.cli.").split(".")[0] for a in node.names
                         if a.name.startswith("ledger.cli."))
    return found


def _graph() -> dict[str, set[str]]:
    return {p.stem: _cli_imports(p) for p in CLI.glob("*.py") if p.stem != "__init__"}


def test_no_command_module_imports_the_app() -> None:
    importers = sorted(name for name, deps in _graph().items() if "app" in deps)
    assert importers == []


def test_cli_modules_import_each_other_without_a_circle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for dep in sorted(graph.get(name, ())):
            visit(dep, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
    # The checker itself sees a circle when there is one.
    assert "common" in graph and "app" in graph


def test_the_app_registers_every_command_module() -> None:
    # The app names each command by its module (cli.app.COMMANDS), loaded when it runs.
    from ledger.cli.app import COMMANDS

    commands = {p.stem for p in CLI.glob("*.py")} - {
        "__init__", "app", "common", "render", "render_calc", "render_close", "render_life",
        "render_lookup", "render_reports", "render_revisions", "render_site", "render_corrections", "values",
        "progress", "publish", "list_import", "tables", "lazy", "tree", "columns", "coercion",
        "collector"}
    assert commands <= {command.module for command in COMMANDS.values()}
