"""The site record's text (``site_record.record_text``) is JSON that reads back as written, for
plain names and states (written without ``json.dumps``) and for the others (written through it)."""

from __future__ import annotations

import json

from ledger.services.publishing.site_record import Record, Stamp, record_text


def test_record_text_reads_back_and_escapes_what_json_escapes() -> None:
    files = {
        "players/1.html": ["f", 2048, 1764720000123456789, 42],
        'odd "name".html': ["f", 1, 2, 3],           # a quote: through json.dumps
        "back\\slash.html": ["f", 1, 2, 3],          # a backslash: through json.dumps
        "Müller.html": ["f", 1, 2, 3],               # not ASCII: through json.dumps
        "tab\there.html": ["f", 1, 2, 3],            # not printable: through json.dumps
        "latest.html": ["l", "lists/standard-2026-10.html"],  # a link's state
        "players": ["d"],                            # a folder's state
    }
    stamp = Stamp(7, "ab" * 32, "1.0", "Club", None, "2026-11-15", "unsigned")
    text = record_text(Record(stamp, 1, 2, 0, {}, files)).decode()
    assert json.loads(text)["files"] == files
    # the plain entry is written exactly as json.dumps writes it
    assert '  "players/1.html": ["f", 2048, 1764720000123456789, 42],' in text.splitlines()
    assert r'"odd \"name\".html"' in text and r'"back\\slash.html"' in text
    assert r'"M\u00fcller.html"' in text and r'"tab\there.html"' in text
