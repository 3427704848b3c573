"""How the site's templates write a value (``{{ ... }}``): ``finalize`` (None as nothing, the
ledger's escaping) and, in an HTML or XML template, ``shown``, which finalizes and escapes a
value in one call (issue 25): Jinja2 writes each value of an autoescaping template as
``escape(finalize(value))``, two calls and a ``Markup`` made for every cell of a table (some
430 values a player page at size M); ``Generator`` compiles it as ``shown(value)``, the same
text. Pure.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import jinja2
from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import EvalContext, Expr
from markupsafe import Markup

#: What an escaped text differs in (``html.escape``'s five characters).
_ESCAPED = re.compile("[&<>\"']")
_Finalize = CodeGenerator._FinalizeInfo


@jinja2.pass_eval_context
def finalize(context: EvalContext, value: object) -> object:
    """Every value a template writes: None as nothing; in an HTML or XML template, markup as it
    is and anything else escaped by ``html.escape`` (``&``, ``<``, ``>``, ``"`` and ``'``: the
    entities the ledger's pages have always written: a text without quotes is left to the
    template's ``markupsafe.escape``, which writes the same for the other three, at a seventh
    of the cost; a ``Decimal`` or a ``datetime.date``, whose text is digits, signs, points and
    letters, as that text, marked safe); in the stylesheet and script, as it is. (An
    autoescaping template's values go through ``shown`` instead, which gives the same text;
    this one serves the others and an ``{% autoescape %}`` block's.)"""
    if value is None:
        return ""
    kind = type(value)
    if kind is int or not context.autoescape or kind is Markup:
        return value
    if kind is Decimal or kind is dt.date:
        return Markup(value)  # str(value): nothing html.escape would change
    if kind is str and '"' not in value and "'" not in value:  # type: ignore[operator]
        return value  # the template's own escape gives what html.escape gives, at once
    return Markup(html.escape(value if isinstance(value, str) else str(value), quote=True))


def shown(value: Any) -> str:
    """What ``escape(finalize(value))`` writes in an autoescaping template, in one call and
    without a ``Markup`` made for each value: None as nothing; an ``int`` (its digits), a
    ``Decimal`` or a ``datetime.date`` as its text; ``Markup`` as it is; a text, and anything
    else's ``str``, by ``html.escape`` with its quotes (for ``&``, ``<`` and ``>`` the entities
    ``markupsafe.escape`` writes too, which ``finalize`` leaves a text without quotes to).
    Raises what ``str(value)`` raises (``jinja2.StrictUndefined``: an undefined name)."""
    kind = type(value)
    if kind is str:
        return html.escape(value) if _ESCAPED.search(value) else value
    if value is None:
        return ""
    if kind is int or kind is Decimal or kind is dt.date:
        return str(value)
    if kind is Markup:
        return value  # type: ignore[no-any-return]
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


class Generator(CodeGenerator):
    """Jinja2's code generator, but a value written by an autoescaping template (outside an
    ``{% autoescape %}`` block) is ``environment.shown(value)``, not
    ``escape(environment.finalize(context.eval_ctx, value))`` (the environment is a
    ``ShownEnvironment``). Text the template holds, and constants, are written as before."""

    def _output_child_pre(self, node: Expr, frame: Frame, finalize: _Finalize) -> None:
        self._around(node, frame, finalize, "environment.shown(", super()._output_child_pre)

    def _output_child_post(self, node: Expr, frame: Frame, finalize: _Finalize) -> None:
        self._around(node, frame, finalize, ")", super()._output_child_post)

    def _around(self, node: Expr, frame: Frame, finalize: _Finalize, ours: str,
                theirs: Callable[[Expr, Frame, _Finalize], None]) -> None:
        """Write ``ours`` before or after a value an autoescaping template writes (outside a
        volatile ``{% autoescape %}`` block); Jinja2's own code (``theirs``) for the others."""
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            theirs(node, frame, finalize)
        else:
            self.write(ours)


class ShownEnvironment(jinja2.Environment):
    """A Jinja2 environment whose templates write their values by ``shown`` (``Generator``);
    give it ``finalize`` as its ``finalize``."""

    code_generator_class = Generator
    shown = staticmethod(shown)
