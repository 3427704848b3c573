"""The house's shape (docs/DESIGN.md "The shape of the house", issue 21 §1): arrows point down
only, no module imports itself back through others, and each group of ``ledger.services`` calls
only the groups its ``__init__`` docstring names on its ``May call:`` line.

Imports are read from the source (``import``, ``from ... import``, at any depth: a function's
import counts as much as the module's, and ``cli.lazy.lazy("ledger...")`` names one too), so the
rules hold for the code that runs, not only for what loads at start-up.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

LEDGER = Path(__file__).resolve().parents[1] / "ledger"

#: What each part of the package may import (besides itself). ``rules`` and ``formats`` are
#: pure; ``db`` may read the rules' shapes (``rules.row_results.SIDE_FIELDS``); services never
#: import the faces.
MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "config": {"errors"},
    "domain": {"errors"},
    "confusables": set(),
    "names": {"errors", "domain", "confusables"},
    "rules": {"errors", "domain"},
    "formats": {"errors", "domain", "names", "rules"},
    "db": {"errors", "domain", "names", "rules"},
    "verify": {"errors", "domain", "rules", "formats"},
    "services": {"errors", "config", "domain", "names", "rules", "formats", "db"},
    "web": {"errors", "config", "domain", "names", "rules", "formats", "db", "services"},
    "cli": {"errors", "config", "domain", "names", "rules", "formats", "db", "services", "web",
            "verify"},
    "__main__": {"cli"},
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(LEDGER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(LEDGER.rglob("*.py"))}


def _known(name: str) -> str:
    """``name`` (a module, or a name inside one) as the module that holds it."""
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> set[str]:
    """The ``ledger`` modules ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([base] if base else [])])
            if base.startswith("ledger"):
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in MODULES else _known(base))
        elif isinstance(node, ast.Import):
            found.update(_known(a.name) for a in node.names if a.name.startswith("ledger."))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "lazy" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(_known(node.args[0].value))
    found.discard(module)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def part(module: str) -> str:
    """The part of the package a module belongs to: ``rules``, ``services``, ``cli`` ..."""
    return module.split(".")[1] if "." in module else module


def group(module: str) -> str | None:
    """The services group of a module (``close`` for ``ledger.services.close.rating``)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "services" else None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in graph:
                continue
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_checker_sees_a_circle_and_an_import_of_each_kind() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    # A lazy name, a function's import and a module's import are all seen.
    assert "ledger.services.register.games" in GRAPH["ledger.cli.games"]  # lazy("...")
    assert "ledger.rules.period_arrays" in GRAPH["ledger.rules.period_rows"]  # inside rate_rows
    assert "ledger.rules.row_results" in GRAPH["ledger.rules.period_arrays"]


def test_every_part_imports_only_the_parts_below_it() -> None:
    upward = sorted(f"{module} -> {dep}" for module, deps in GRAPH.items() for dep in deps
                    if part(dep) != part(module) and part(dep) not in MAY_IMPORT[part(module)])
    assert upward == []
    assert set(map(part, MODULES)) - {"ledger"} <= set(MAY_IMPORT)


def test_no_module_imports_itself_back() -> None:
    # A package's __init__ that names its children is no circle: leave out edges from a package
    # to what it holds.
    graph = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in GRAPH.items()}
    assert circles(graph) == []


SERVICE_GROUPS = sorted({g for m in MODULES if (g := group(m))})


def allowed_groups(name: str) -> set[str]:
    """The groups the ``May call:`` line of ``ledger.services.NAME``'s docstring names."""
    doc = ast.get_docstring(ast.parse(MODULES[f"ledger.services.{name}"].read_text())) or ""
    line = re.search(r"^May call: (.*)$", doc, re.MULTILINE)
    assert line, f"ledger/services/{name}/__init__.py: no 'May call:' line"
    if line.group(1).startswith("nothing"):
        return set()
    return {word.strip(" .") for word in line.group(1).split(",")}


def test_services_are_grouped_with_no_module_left_loose() -> None:
    loose = sorted(m for m in MODULES if part(m) == "services" and m != "ledger.services"
                   and group(m) is None)
    assert loose == []
    assert SERVICE_GROUPS == ["accounts", "admin", "close", "core", "corrections", "imports",
                              "publishing", "register", "submissions"]


@pytest.mark.parametrize("name", SERVICE_GROUPS)
def test_each_group_calls_only_the_groups_it_names(name: str) -> None:
    allowed = allowed_groups(name)
    assert allowed <= set(SERVICE_GROUPS), allowed
    crossing = sorted(f"{module} -> {dep}" for module, deps in GRAPH.items()
                      if group(module) == name for dep in deps
                      if (g := group(dep)) is not None and g != name and g not in allowed)
    assert crossing == []


def test_the_groups_named_allow_no_circle() -> None:
    assert circles({name: allowed_groups(name) for name in SERVICE_GROUPS}) == []



def test_each_module_stays_readable() -> None:
    # About 400 lines at most (issue 21 §1): a module past it usually holds two things.
    long = sorted(f"{m}: {n}" for m, p in MODULES.items()
                  if (n := len(p.read_text(encoding="utf-8").splitlines())) > 420)
    assert long == []
