"""The CLI's shape (issue 9, item 9): the shared plumbing lives in ``cli/common.py``; ``cli/app.py``
only builds the app and registers the groups, so no command module imports it and the CLI's
modules (the render package's too) import each other without a circle; the render package's
``__init__`` imports nothing."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "ledger" / "cli"


def _name(path: Path) -> str:
    """A module by its name below ``ledger.cli``: ``common``, ``render.output``; a package by
    its own (``render`` for ``render/__init__.py``)."""
    parts = path.relative_to(CLI).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module and package of ``ledger.cli``, the render package's modules too.
MODULES = {_name(p) for p in CLI.rglob("*.py")} - {""}


def _cli_imports(path: Path) -> set[str]:
    """The ``ledger.cli`` modules ``path`` imports, by their names below ``ledger.cli``: ``from
    ledger.cli import x`` counts as x, ``from ledger.cli.render import close`` as
    ``render.close``, ``from ledger.cli.render.output import say`` as ``render.output``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "ledger.cli" or node.module.startswith("ledger.cli.")):
            base = node.module.removeprefix("ledger.cli").removeprefix(".")
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                found.add(full if full in MODULES else base)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("ledger.cli.") for a in node.names
                         if a.name.startswith("ledger.cli."))
    return found - {""}


def _graph() -> dict[str, set[str]]:
    return {_name(p): _cli_imports(p) for p in CLI.rglob("*.py") if _name(p)}


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
    # The checker itself sees a circle when there is one, and walks the render package too.
    assert "common" in graph and "app" in graph
    assert {"render.close", "render.output"} <= graph["periods"]
    assert "render.output" in graph["render.close"]


def test_the_render_package_imports_nothing_itself() -> None:
    # render/__init__.py stays empty of imports: a command loads only the renderers it names
    # (``ledger calc`` no close, no player), not every one through the package.
    tree = ast.parse((CLI / "render" / "__init__.py").read_text(encoding="utf-8"))
    assert [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)] == []
    assert ast.get_docstring(tree)


def test_the_app_registers_every_command_module() -> None:
    # The app names each command by its module (cli.app.COMMANDS), loaded when it runs.
    from ledger.cli.app import COMMANDS

    commands = {p.stem for p in CLI.glob("*.py")} - {
        "__init__", "app", "common", "progress", "publish", "lazy", "tree", "columns", "coercion",
        "collector"}
    assert commands <= {command.module for command in COMMANDS.values()}


def _paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The argument paths of ``command`` and of every command under it (``player add`` ...)."""
    found = [path]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += _paths(sub, (*path, name))
    return found


def test_no_help_prints_bool_beside_a_flag() -> None:
    # Typer writes <bool> beside a flag made without a metavar: its own --help,
    # --install-completion and --show-completion (issue 21 §6, item 3)
    import typer
    from typer.testing import CliRunner

    from ledger.cli.app import app

    group = typer.main.get_command(app)
    group.load_all()  # type: ignore[attr-defined]
    paths = _paths(group)
    assert ("period", "close") in paths and len(paths) > 30
    top = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "120"})
    assert "--install-completion" in top.stdout and "--show-completion" in top.stdout
    shown = {path: CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "120"}).stdout
             for path in paths}
    assert all("--help" in text for text in shown.values())
    assert [path for path, text in shown.items() if "<bool>" in text] == []
