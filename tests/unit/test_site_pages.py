"""The website's pure page builder (formats.site): the chart's geometry worked by hand, every
text escaped, links relative, corrections said and linked, the crosstable's cells, the same
values giving the same bytes."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from ledger.formats.site import chart
from ledger.formats.site.crosstable import crosstable
from ledger.formats.site.joined import joined
from ledger.formats.site.model import (
    ChartPoint,
    EventLine,
    EventPage,
    ListLine,
    ListPage,
    ListRevision,
    PlayedGame,
    PlayerPage,
    PoolRecord,
    Site,
)
from ledger.formats.site.pages import (
    SITE_POLICY,
    environment,
    event_page,
    list_neighbours,
    list_page,
    player_page,
    relinked_list,
    render_site,
)
from ledger.formats.site.paths import relative

HOSTILE = '<script>alert("x")</script> & O\'Neil'


class Links(HTMLParser):
    """Every href and src, the meta tags and the text of the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.metas: list[dict[str, str | None]] = []
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        self.links += [v for k, v in attrs if k in ("href", "src") and v is not None]
        if tag == "meta":
            self.metas.append(values)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Links:
    found = Links()
    found.feed(page)
    return found


# ------------------------------------------------------------------------------------------------
# The chart


def test_rating_step_spans_the_ratings_in_six_intervals_at_most() -> None:
    # 1620..1693: step 5 needs 339 - 324 = 15 intervals, 10 needs 170 - 162 = 8, 20 needs 85 - 81 = 4
    assert chart.rating_step(1620, 1693) == 20
    # 2700..2868 (Tata): 20 -> 144 - 135 = 9; 25 -> 115 - 108 = 7; 50 -> 58 - 54 = 4
    assert chart.rating_step(2702, 2868) == 50
    assert chart.rating_step(1500, 1500) == 5


@pytest.mark.parametrize(("value", "written"), [
    (Fraction(6445, 100), "64.5"), (Fraction(1, 3), "0.3"), (Fraction(2, 3), "0.7"),
    (Fraction(1, 4), "0.3"), (Fraction(-1, 4), "-0.3"), (Fraction(-1, 20), "-0.1"),
    (Fraction(-1, 30), "-0.0"), (Fraction(0), "0.0"), (7, "7.0"), (-7, "-7.0"),
    (Fraction(12345, 1000), "12.3")])
def test_a_coordinate_is_written_to_one_decimal_half_up_as_decimal_wrote_it(
        value: Fraction | int, written: str) -> None:
    # what Decimal.quantize(Decimal("0.1"), ROUND_HALF_UP) wrote: ties away from zero, -0.0 kept
    assert chart._n(value) == written


def test_chart_geometry_of_the_example_junior() -> None:
    # Tanaka in the example season: brought 1620 into September 2026 (in force from 1 September),
    # 1628 on the list of 1 October, 1693 on the list of 1 November.
    points = [ChartPoint(dt.date(2026, 9, 1), 1620, None),
              ChartPoint(dt.date(2026, 10, 1), 1628, "2026-09"),
              ChartPoint(dt.date(2026, 11, 1), 1693, "2026-10")]
    c = chart.layout(points)
    # x: the plot runs from 72 to 720 - 24 = 696 (624 wide) over two months: 72, 384, 696.
    # y: step 20 -> 1620..1700; the plot runs from 48 to 300 - 64 = 236 (188 high):
    # 1620 -> 236; 1628 -> 48 + 72/80 x 188 = 217.2; 1693 -> 48 + 7/80 x 188 = 64.45 -> 64.5
    assert [(m.x, m.y, m.kind) for m in c.marks] == [
        ("72.0", "236.0", "start"), ("384.0", "217.2", "list"), ("696.0", "64.5", "list")]
    assert c.path == "M72.0,236.0 L384.0,217.2 L696.0,64.5"
    assert [t.text for t in c.y_ticks] == ["1620", "1640", "1660", "1680", "1700"]
    # 1640 -> 48 + 60/80 x 188 = 189.0
    assert c.y_ticks[1].at == "189.0"
    assert [(t.text, t.anchor) for t in c.x_ticks] == [
        ("Sep 2026", "start"), ("Oct 2026", "middle"), ("Nov 2026", "end")]
    assert c.lists == 2
    assert c.summary == ("2 lists from Oct 2026 to Nov 2026; start rating 1620 (Sep 2026); "
                         "lowest 1620, highest 1693, latest 1693.")


def test_chart_of_one_list_and_many_months() -> None:
    # one point: in the middle, the step padding both sides (1850 -> 1845..1855)
    one = chart.layout([ChartPoint(dt.date(2026, 11, 1), 1850, "2026-10")])
    assert (one.marks[0].x, one.marks[0].y) == ("384.0", "142.0")  # 72 + 312; 48 + 94
    assert [t.text for t in one.y_ticks] == ["1845", "1850", "1855"]
    # 30 monthly lists: at most 8 month labels (every 4th: 8 of them, the last the 29th ...
    # replaced by the last month), every other inner one minor on a phone
    many = chart.layout([ChartPoint(dt.date(2024 + (m // 12), m % 12 + 1, 1), 1800 + m, None
                                    if m == 0 else f"p{m}") for m in range(30)])
    labels = [t.text for t in many.x_ticks]
    assert len(labels) == 8 and labels[0] == "Jan 2024" and labels[-1] == "Jun 2026"
    assert [t.minor for t in many.x_ticks] == [False, True, False, True, False, True, False,
                                               False]
    with pytest.raises(ValueError):
        chart.layout([])


# ------------------------------------------------------------------------------------------------
# Pages


def _line(rank: int, pid: int, name: str, rating: int, previous: int | None, **kw: object) -> ListLine:
    values: dict[str, object] = {"title": None, "federation": "IRL", "sex": "M", "junior": False,
                                 "games": 2, "k": 20, "inactive": False}
    values.update(kw)
    return ListLine(rank, pid, name, name.casefold(), rating=rating, previous=previous,
                    **values)  # type: ignore[arg-type]


def _site(lists: tuple[ListPage, ...] = (), players: tuple[PlayerPage, ...] = (),
          events: tuple[EventPage, ...] = (), base_url: str | None = None) -> Site:
    return Site(HOSTILE, dt.date(2026, 12, 1), lists, players, events, base_url)


OCTOBER = ListPage("standard", "2026-10", dt.date(2026, 11, 1), (
    _line(1, 1, "Okafor, Grace", 2389, 2392, title="IM", sex="F"),
    _line(2, 9, HOSTILE, 1693, None, junior=True, inactive=True)))


def test_a_list_page_escapes_everything_and_links_relatively() -> None:
    page = list_page(_site((OCTOBER,)), OCTOBER)
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#x27;Neil" in page
    parsed = parse(page)
    # the page's own stylesheet and script, its players and the site's pages, all relative
    # (../index.html: the index of the lists)
    assert sorted(set(parsed.links)) == ["#main", "../../events/index.html", "../../index.html",
                                         "../../players/1.html", "../../players/9.html",
                                         "../../players/index.html", "../../site.css",
                                         "../../site.js", "../index.html"]
    csp = next(m for m in parsed.metas if m.get("http-equiv") == "Content-Security-Policy")
    assert csp["content"] == SITE_POLICY == ("default-src 'none'; style-src 'self'; "
                                             "script-src 'self'; base-uri 'none'; "
                                             "form-action 'none'")
    # the rows carry what the script filters on: the key, federation, woman, junior, active
    rows = re.findall(r"<tr data-key[^>]*>", page)
    assert rows == ['<tr data-key="okafor, grace" data-fed="IRL" data-w data-a>',
                    '<tr data-key="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; '
                    'o&#x27;neil" data-fed="IRL" data-j class="inactive">']
    # change -3 (2389 - 2392) and a player new on the list
    assert '<td class="num" data-sort="-3"><span class="down">-3</span></td>' in page
    assert '<td class="num" data-sort="">new</td>' in page
    assert "superseded" not in page and "Corrected" not in page
    assert 'lang="en"' in page and '<th scope="col"' in page and '<th scope="row"' in page


def test_a_new_list_is_linked_from_the_one_before_in_its_bytes() -> None:
    """September's page rendered when it was the latest list, given the link to October in
    place, is what rendering it with October beside it gives; a page that does not end with
    the links it had is not patched (None: rendered whole instead)."""
    september = ListPage("standard", "2026-09", dt.date(2026, 10, 1), OCTOBER.lines)
    august = ListPage("standard", "2026-08", dt.date(2026, 9, 1), OCTOBER.lines)
    before, after = _site((august, september)), _site((august, september, OCTOBER))
    was = list_page(before, september, list_neighbours(before, september))
    now = list_page(after, september, list_neighbours(after, september))
    assert list_neighbours(after, september) == ("lists/standard/2026-08.html",
                                                 "lists/standard/2026-10.html")
    assert '<a href="2026-10.html" rel="next">Next list</a>' in now and "rel=\"next\"" not in was
    assert relinked_list(was, september.path, list_neighbours(before, september),
                         list_neighbours(after, september)) == now
    # the first list of a pool had no links at all: they are added
    first = _site((september,))
    alone = list_page(first, september, list_neighbours(first, september))
    linked = _site((september, OCTOBER))
    assert relinked_list(alone, september.path, (None, None),
                         list_neighbours(linked, september)) == \
        list_page(linked, september, list_neighbours(linked, september))
    assert relinked_list(was.replace("rel=\"prev\"", "rel=\"up\""), september.path,
                         list_neighbours(before, september),
                         list_neighbours(after, september)) is None


def test_corrections_are_said_and_linked() -> None:
    # issue 10's re-rating: revision 1 (the close) superseded by revision 2
    revisions = (ListRevision(1, dt.date(2026, 11, 1)),
                 ListRevision(2, dt.date(2026, 11, 20), "late result from the club league"))
    current = ListPage("standard", "2026-10", dt.date(2026, 11, 1), OCTOBER.lines, 2, revisions)
    first = ListPage("standard", "2026-10", dt.date(2026, 11, 1), OCTOBER.lines[:1], 1, revisions)
    assert current.path == "lists/standard/2026-10.html"
    assert first.path == "lists/standard/2026-10-r1.html"
    assert first.superseded and not current.superseded
    site = _site((current, first))
    now = list_page(site, current)
    assert ("Corrected: this list was re-rated on 20 November 2026 (late result from the club "
            "league); this is revision 2. As published before:") in now
    assert '<a href="2026-10-r1.html">revision 1</a>' in now
    then = list_page(site, first)
    assert "This list was superseded by a re-rating on 20 November 2026" in then
    assert '<a href="2026-10.html">The current list (revision 2)</a>' in then
    files = dict(render_site(site))
    assert "lists/standard/2026-10-r1.html" in files
    assert '<a href="lists/standard/2026-10-r1.html">as published, revision 1</a>' in files[
        "index.html"]


def _game(opponent: int, colour: str, score: str, rnd: str | None, forfeit: bool = False,
          expected: str | None = None) -> PlayedGame:
    return PlayedGame(1, dt.date(2026, 9, 5), 1, "Open", rnd, colour, opponent, f"P{opponent}",
                      1800, 1800, Decimal(score), forfeit, "rated",
                      0 if expected else None, 0 if expected else None,
                      Decimal(expected) if expected else None)


def _event_line(n: int, pid: int, games: tuple[PlayedGame, ...], points: str) -> EventLine:
    return EventLine(n, pid, f"P{pid}", None, None, 1800, Decimal(points), games, len(games),
                     Decimal(points), Decimal("0.5") * len(games), 20, Decimal(0), 0, 2, 1800, 2)


def test_crosstable_cells() -> None:
    # PGN rounds "1.1" and "2.1" are rounds 1 and 2; a forfeit is + or -; a game with no round
    # stands under "other"
    a = _event_line(1, 10, (_game(20, "white", "1", "1.1"), _game(30, "black", "0.5", "2.1"),
                            _game(20, "black", "1", None, forfeit=True)), "2.5")
    b = _event_line(2, 20, (_game(10, "black", "0", "1.1"), _game(10, "white", "0", None,
                                                                     forfeit=True)), "0")
    c = _event_line(3, 30, (_game(10, "white", "0.5", "2.1"),), "0.5")
    page = EventPage(1, "Open", dt.date(2026, 9, 5), dt.date(2026, 9, 6), "2026-09", True, None,
                     None, 3, (a, b, c))
    rounds, cells = crosstable(page)
    assert [r.label for r in rounds] == ["R1", "R2", "other"]
    assert cells == {10: ["2w1", "3b½", "2b+"], 20: ["1b0", "", "1w-"], 30: ["", "1w½", ""]}
    html = event_page(_site(events=(page,)), page)
    assert '<td class="num" data-label="R2">3b½</td>' in html


def _player(name: str = HOSTILE) -> PlayerPage:
    record = PoolRecord("standard", 1693, 40, "junior", 52, (), (
        ChartPoint(dt.date(2026, 9, 1), 1620, None),
        ChartPoint(dt.date(2026, 10, 1), 1628, "2026-09"),
        ChartPoint(dt.date(2026, 11, 1), 1693, "2026-10", "K 40 -> 20")), ())
    return PlayerPage(9, name, name.casefold(), None, "IRL", None, "M", 2011, (record,))


def test_a_player_page_draws_one_point_per_list_and_marks_k() -> None:
    page = player_page(_site(players=(_player(),)), _player())
    # the chart's marks (the key below it draws one of each, without coordinates)
    assert page.count('<circle class="point" cx=') == 2
    assert re.findall(r'data-rating="(\d+)"', page) == ["1620", "1628", "1693"]
    assert '<text class="k-note" y="-15" text-anchor="middle">K 40 -&gt; 20</text>' in page
    # the chart names its pool, standard too
    assert "<title id=\"chart-title\">Standard rating history of &lt;script&gt;" in page
    assert "<script>alert" not in page


def test_the_same_site_gives_the_same_bytes_and_only_relative_links() -> None:
    site = _site((OCTOBER,), (_player("Byrne, Seán"),), base_url="https://club.example/r/")
    first, second = dict(render_site(site)), dict(render_site(site))
    assert first == second
    assert sorted(first) == ["events/index.html", "index.html", "lists/index.html",
                             "lists/standard/2026-10.html",
                             "players/9.html", "players/index.html", "site.css", "site.js",
                             "sitemap.xml"]
    for path, text in first.items():
        if not path.endswith(".html"):
            continue
        for link in parse(text).links:
            if link.startswith("https://club.example/r/"):  # the canonical address only
                continue
            assert "://" not in link and not link.startswith("/"), (path, link)
            assert relative(path, link) != link or "/" not in path
    assert ('<link rel="canonical" href="https://club.example/r/players/9.html">'
            in first["players/9.html"])
    assert "<loc>https://club.example/r/lists/standard/2026-10.html</loc>" in first["sitemap.xml"]
    # a different build date changes the home page only
    later = dict(render_site(Site(site.club, dt.date(2027, 1, 1), site.lists, site.players,
                                  site.events, site.base_url)))
    assert [p for p in first if first[p] != later[p]] == ["index.html"]
    assert "built on 1 January 2027" in later["index.html"]


def test_a_pages_pieces_are_joined_a_few_thousand_at_a_time() -> None:
    # 20,000 pieces: two full batches of 8,192 and one of 3,616, an empty piece in each (an
    # empty batch ends the joining, an empty piece must not), and a text of another width
    pieces = ["ab", "", "é", "€"] * 5000
    text = joined(iter(pieces))
    assert len(text) == 5000 * 4 and text[:8] == "abé€abé€" and text.endswith("abé€")
    assert joined([]) == "" and joined([""] * 3) == "" and joined(["x"]) == "x"


def test_a_value_is_written_escaped_through_the_filters_of_the_pages() -> None:
    # the pages' environment, autoescaping on: _finalize first, then the template's escape
    got = environment().from_string(
        "{% autoescape true %}{{ d }}|{{ e }}|{{ day }}|{{ n }}|{{ none }}|{{ s }}|{{ q }}|"
        "{{ d|signed }}|{{ m|signed }}|{{ m|trend }}|{{ 7|player_link }}|{{ 3|event_link }}"
        "{% endautoescape %}").render(
        d=Decimal("3.10"), e=Decimal("-0.5"), day=dt.date(2026, 10, 3), n=2412, none=None,
        s="Byrne & <Seán>", q="O'Brien \"Q\"", m=-11, url=lambda target: "../" + target)
    assert got == ("3.10|-0.5|2026-10-03|2412||Byrne &amp; &lt;Seán&gt;|"
                   "O&#x27;Brien &quot;Q&quot;|+3.10|-11|down|../players/7.html|../events/3.html")
