"""Service modules loaded when a command first uses them, so that start-up stays cheap.

``ledger --help``, ``ledger calc ...`` and every command's own parsing need the command tree
(``ledger.cli.*``), not the database layer: a command module names its services with
``lazy("ledger.services.close.periods")`` (typed as the module under ``TYPE_CHECKING``), and the
module, with SQLAlchemy and everything it imports, is executed on the first attribute read
(``importlib.util.LazyLoader``: Python's documented recipe for lazy imports), as a start-up
import (``collector.start_up_imports``: without the garbage collector's passes).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ledger.cli.collector import start_up_imports

if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
else:  # importlib.abc imports importlib.resources and tempfile: 2-3 ms of a start-up
    Loader = object


class _StartUpLoader(Loader):
    """``loader``, executing its module as a start-up import (``start_up_imports``); anything
    else (``get_source``, ``get_filename`` ...) is ``loader``'s own."""

    def __init__(self, loader: Loader) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with start_up_imports():
            self._loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


def lazy(name: str) -> ModuleType:
    """The module ``name`` (a dotted name, str): the module itself when already imported, else a
    module that is executed on its first attribute read. Raises ``ModuleNotFoundError`` for a
    name that does not exist (found now, not at first use)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(name)
    loader = importlib.util.LazyLoader(_StartUpLoader(spec.loader))
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
