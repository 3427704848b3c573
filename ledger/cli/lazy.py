"""Service modules loaded when a command first uses them, so that start-up stays cheap.

``ledger --help``, ``ledger calc ...`` and every command's own parsing need the command tree
(``ledger.cli.*``), not the database layer: a command module names its services with
``lazy("ledger.services.periods")`` (typed as the module under ``TYPE_CHECKING``), and the
module, with SQLAlchemy and everything it imports, is executed on the first attribute read
(``importlib.util.LazyLoader``: Python's documented recipe for lazy imports).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module ``name`` (a dotted name, str): the module itself when already imported, else a
    module that is executed on its first attribute read. Raises ``ModuleNotFoundError`` for a
    name that does not exist (found now, not at first use)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
