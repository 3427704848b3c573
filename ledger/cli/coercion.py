"""Argument values of the plain kinds taken without pydantic, the same values Typer gives.

Typer 0.2x turns every parameter's value (a missing option's ``None`` too) through a pydantic
``TypeAdapter`` built on first use: the first command line parsed imports pydantic, about
75 ms of every command's start-up. ``plain_coercion`` makes Typer give each parameter of a
plain kind (``bool``, ``str``, ``int`` in its ``min``/``max``, ``pathlib.Path``) a coercion of
its own for the values that cannot go wrong (a bool; a ``str``; digits in range; a path), which
returns what the adapter returns, and hands every other value, and so every error message, to
Typer's own coercion (``typer._coercion.build_runtime_param``), built then. A ``datetime``
parameter hands on every value given: a command line without it (``ledger import`` without
``--end-date``) imports no pydantic. A Typer without
that layer (before 0.2x, which coerces by Click's types), or a release not in ``TESTED_TYPER``,
is left as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The Typer releases whose private coercion layer this module was written against and tested
#: with (tests/cli/test_startup.py): another release, even one with the same names, is left as
#: it is (slower by pydantic, never wrong) until the tests have been run with it.
TESTED_TYPER = ("0.29.",)

try:  # Typer's coercion layer: private, so used only where it is as expected
    import typer as _typer
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_path
    from typer.core import _TyperParameter
    _HAS_LAYER = _typer.__version__.startswith(TESTED_TYPER)
except ImportError:  # pragma: no cover - an older Typer: nothing to replace
    _HAS_LAYER = False

#: An ``int`` written the one way whose value is plain: an optional sign, then ASCII digits
#: (Python's ``int`` and pydantic agree on it; blanks, ``_`` and ``1.0`` go to pydantic).
_PLAIN_INT = re.compile(r"[+-]?[0-9]{1,18}")


def plain_coercion() -> None:
    """Make Typer build, for each parameter of a plain kind (``_plain_kind``), the
    pydantic-free coercion (see the module's docstring) instead of its own: Typer's lazy
    ``_TyperParameter.get_runtime_param`` is wrapped once for the process (every command's
    parameters, Click's ``--help`` option and Typer's completion options included). Returns
    nothing; raises nothing; a second call does nothing."""
    if not _HAS_LAYER:  # pragma: no cover
        return
    typer_own = _TyperParameter.get_runtime_param
    if getattr(typer_own, "_ledger_plain", False):
        return

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            kind = _plain_kind(descriptor)
            if kind is not None:
                self._runtime_param = _PlainParam(
                    parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                    descriptor=descriptor, kind=kind)
        return typer_own(self)

    get_runtime_param._ledger_plain = True  # type: ignore[attr-defined]
    setattr(_TyperParameter, "get_runtime_param", get_runtime_param)  # noqa: B010


def _plain_kind(descriptor: Any) -> str | None:
    """``"bool"``, ``"str"``, ``"int"`` or ``"path"`` for a parameter this module may coerce,
    ``"datetime"`` for one whose values it hands on all (``ledger import --end-date``: left out,
    its ``None`` is Typer's ``RuntimeParam.coerce``'s, taken before any coercion is built), else
    None."""
    info = descriptor.parameter_info
    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
        return None
    if descriptor.file_annotation is not None or descriptor.choices is not None:
        return None
    annotation = descriptor.annotation
    if annotation is bool:
        return "bool"
    if annotation is str and not descriptor.is_path:
        return "str"
    if annotation is int and not getattr(info, "clamp", False):
        return "int"
    if annotation is Path and info.path_type is None:
        return "path"
    if annotation is dt.datetime:  # every value given goes to Typer's own: only a missing
        return "datetime"          # option's None (``RuntimeParam.coerce``) builds nothing
    return None


if _HAS_LAYER:

    @dataclass(frozen=True)
    class _PlainParam(RuntimeParam):
        """Typer's ``RuntimeParam`` for one plain parameter: ``descriptor`` is Typer's
        ``TypeDescriptor`` of it, ``kind`` what ``_plain_kind`` said."""

        descriptor: Any = None
        kind: str = ""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.kind == "bool" and type(value) is bool:
                return value
            if self.kind == "str" and _plain_str(value):
                return value
            if self.kind == "int":
                number = _plain_int(value)
                info = self.parameter_info
                if number is not None and (info.min is None or number >= info.min) and (
                        info.max is None or number <= info.max):
                    return number
            if self.kind == "path" and value and _plain_str(value):
                return coerce_cli_path(Path(value), self.parameter_info, path_type=Path,
                                       param=param, ctx=ctx)
            return build_runtime_param(self.descriptor)._coerce_value(value, param, ctx)


def _plain_str(value: Any) -> bool:
    """Whether ``value`` is a ``str`` that pydantic takes as it is: one that UTF-8 can encode
    (a lone surrogate, from bytes of a command line that are no UTF-8, goes to pydantic)."""
    if type(value) is not str:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _plain_int(value: Any) -> int | None:
    """``value`` as an int when it is one or is written plainly (``_PLAIN_INT``), else None."""
    if type(value) is int:
        return value
    if type(value) is str and _PLAIN_INT.fullmatch(value):
        return int(value)
    return None
