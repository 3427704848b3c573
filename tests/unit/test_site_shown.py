"""The site's templates write each value by ``shown`` (``formats.site.shown``): the same text
Jinja2's own ``escape(finalize(value))`` wrote, in one call."""

from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal

import jinja2
import pytest
from markupsafe import Markup

from ledger.formats.site.pages import environment
from ledger.formats.site.shown import finalize, shown


class _Pool(str, enum.Enum):  # noqa: UP042 (its str() is not its text)
    STANDARD = "standard"


class _Thing:
    def __str__(self) -> str:
        return "<a & 'b'>"


VALUES = [None, 0, -7, 2412, True, False, Decimal("-0.50"), dt.date(2026, 10, 3), "",
          "Byrne, Seán", "a & b", "<i>", "O'Brien", 'say "hi"', "x > y & 'z' < \"w\"",
          Markup("<b>bold</b>"), _Pool.STANDARD, _Thing()]
#: What each of VALUES is written as, by hand (html.escape's entities for the quotes).
WRITTEN = ["", "0", "-7", "2412", "True", "False", "-0.50", "2026-10-03", "",
           "Byrne, Seán", "a &amp; b", "&lt;i&gt;", "O&#x27;Brien", "say &quot;hi&quot;",
           "x &gt; y &amp; &#x27;z&#x27; &lt; &quot;w&quot;", "<b>bold</b>", "standard",
           "&lt;a &amp; &#x27;b&#x27;&gt;"]


@pytest.mark.parametrize(("value", "written"), list(zip(VALUES, WRITTEN, strict=True)))
def test_a_value_is_written_as_jinja2_wrote_it(value: object, written: str) -> None:
    plain = jinja2.Environment(autoescape=True, finalize=finalize)  # Jinja2's own code
    template = ("[{{ v }}]{% set s %}({{ v }}){% endset %}{{ s }}"
                "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(v) }}")
    expected = f"[{written}]({written})<{written}>"
    assert shown(value) == written
    assert plain.from_string(template).render(v=value) == expected
    assert environment().from_string(template).render(v=value) == expected


def test_the_site_templates_write_their_values_by_shown() -> None:
    source = environment().compile("{{ v }}{{ '<' ~ v }}", raw=True)
    assert "environment.shown(" in source and "escape(" not in source
    # an {% autoescape %} block whose setting is known at run time only: Jinja2's own code
    volatile = environment().compile("{% autoescape on %}{{ v }}{% endautoescape %}"
                                     "{% autoescape a %}{{ v }}{% endautoescape %}", raw=True)
    assert "escape if context.eval_ctx.autoescape else str" in volatile
    got = environment().from_string(
        "{% autoescape a %}{{ v }}{% endautoescape %}|{{ v }}").render(a=False, v="<'>")
    assert got == "<'>|&lt;&#x27;&gt;"


def test_an_undefined_value_is_refused() -> None:
    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ missing }}").render()
