"""The live pages: a template of the site's (``formats.site``, the same set the static build
uses) rendered with what ``base.html`` needs when served: links from the server's root, no
Content-Security-Policy of its own (the server's header carries it, ``web.POLICY``: a
``<meta>`` one cannot hold ``frame-ancestors``, and the browser says so on its console), no
canonical address, the stylesheet and script as files.

Every template rendered here may also use ``user`` (the logged-in ``Account``, or None) and
``csrf_token()`` (the hidden field every form must carry: ``<input type="hidden"
name="csrf_token" value="{{ csrf_token() }}">``).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, g, request
from flask_wtf.csrf import generate_csrf

from ledger.formats.site.pages import environment


def url(target: str) -> str:
    """The address of the site path ``target`` on this server: ``/`` + it."""
    return "/" + target


def account_link() -> tuple[str, str]:
    """The navigation's account link: (address, label), to log in or, for a user logged in
    (``g.user``), to their account."""
    root = request.script_root
    return (root + "/account", "Account") if g.get("user") else (root + "/login", "Log in")


def render(template: str, title: str, *, script: bool = False, **context: Any) -> str:
    """The page ``template`` (a name under ``ledger/formats/site/templates``) titled ``title``,
    with ``context``; ``script``: load the site's small script."""
    return environment().get_template(template).render(
        url=url, club=current_app.config["LEDGER_CLUB"], title=title, csp=None,
        canonical=None, inline_css=None, inline_js=None, script=script,
        account=account_link(), user=g.get("user"), csrf_token=generate_csrf, **context)
