"""The corrections from the web (issue 23), each the CLI's command over the same service with
the same arguments: ``/officer/games/ID/void`` (``game void``), ``/officer/games/ID/correct``
(``game correct``), ``/officer/players/merge`` (``player merge``), ``/officer/players/ID/edit``
(``player edit``), ``/officer/players/ID/withdraw`` (``player withdraw``),
``/officer/players/ID/correct-rating`` (``player correct-rating``),
``/officer/imports/ID/revert`` (``imports revert``) and ``/officer/replace`` (``import FILE
--replace``).

Each is a form: a GET with ``preview`` runs the service's dry run and shows its full effect
(the games before and after, what is carried into the next period or every rating a re-rating
changes) with the button that does it; the POST (CSRF) does it as the web user
(``officer_pages.actor``). A reason is required, as in the CLI (the service refuses without
one). ``/officer/replace`` takes a file, so its preview is a POST too: the file is kept, by its
SHA-256, in a folder of the server's own (never under a served one) until it is applied, or
for a day (``HELD_FOR``).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Blueprint, redirect, request, url_for

from ledger.domain import parse_pool
from ledger.errors import InvalidInput, LedgerError, NotFound
from ledger.services.corrections import games, merge, player_edit, replace, revert
from ledger.services.register import withdrawal
from ledger.services.submissions.checking import refuse_upload, safe_name
from ledger.web import UPLOAD_LIMIT
from ledger.web.access import require
from ledger.web.officer import previewed
from ledger.web.officer_pages import (
    EFFECT,
    POOL,
    REASON,
    Field,
    actor,
    effect,
    engine,
    number,
    render,
    status_of,
    text,
    ticked,
)

blueprint = Blueprint("corrections", __name__, url_prefix="/officer")

VOID = (REASON, EFFECT)
CORRECT = (Field("result", "Result", hint="1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-; blank: unchanged"),
           Field("date", "Date (YYYY-MM-DD)", hint="blank: unchanged"),
           Field("white", "White (id #12, FIDE id or name)", hint="blank: unchanged"),
           Field("black", "Black (id #12, FIDE id or name)", hint="blank: unchanged"),
           Field("event", "Event (id #3 or name)", hint="blank: unchanged"), REASON, EFFECT)
MERGE = (Field("keep", "The player to keep (id #12, FIDE id or name)", required=True),
         Field("duplicate", "The same player registered again", required=True), REASON,
         Field("rerate", "Re-rate the closed periods that hold the duplicate's games",
               "checkbox"))
EDIT = (Field("name", 'Name ("Surname, Name")', hint="blank: unchanged"),
        Field("fide_id", "FIDE id"), Field("birth_year", "Year of birth"),
        Field("sex", "Sex (M or F)"), Field("federation", "Federation (e.g. ENG)"),
        Field("title", "Title (GM, IM, FM ...)"),
        Field("prior_games", "Rated games before entering the ledger",
              hint="counts from the earliest open period"),
        Field("reached_2400", "A published rating has reached 2400 (K 10 for ever)", "checkbox"),
        POOL, REASON)
REVERT = (REASON, EFFECT)
REPLACE = (Field("file", "The corrected file of the event (TRF, PGN or CSV)", "file",
                 required=True),
           Field("format", "Format", "select", (("", "From the file"), ("trf", "TRF"),
                                                ("pgn", "PGN"), ("csv", "CSV"))),
           Field("register_players", "Register the file's unknown players", "checkbox"),
           REASON, EFFECT)


def _upper(values: Mapping[str, str], name: str) -> str | None:
    value = text(values, name)
    return value.upper() if value else None


@blueprint.route("/games/<int:game_id>/void", methods=["GET", "POST"])
@require("correction.make")
def void(game_id: int) -> tuple[str, int]:
    """``game void ID --reason [--in-next-period | --rerate]``."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        in_next, rerate = effect(values)
        return games.void_games(engine(), [str(game_id)], reason=values.get("reason"),
                                in_next_period=in_next, rerate=rerate, dry_run=dry_run,
                                actor=actor())
    return previewed("void", f"Void game {game_id}", VOID, run, subject=game_id)


@blueprint.route("/games/<int:game_id>/correct", methods=["GET", "POST"])
@require("correction.make")
def correct(game_id: int) -> tuple[str, int]:
    """``game correct ID --result --date --white --black --event --reason [mode]``."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        in_next, rerate = effect(values)
        fix = games.GameFix(result=text(values, "result"), date=text(values, "date"),
                            white=text(values, "white"), black=text(values, "black"),
                            event=text(values, "event"))
        return [games.correct_game(engine(), str(game_id), fix, reason=values.get("reason"),
                                   in_next_period=in_next, rerate=rerate, dry_run=dry_run,
                                   actor=actor())]
    return previewed("void", f"Correct game {game_id}", CORRECT, run, subject=game_id)


@blueprint.route("/players/merge", methods=["GET", "POST"])
@require("correction.make")
def merge_players() -> tuple[str, int]:
    """``player merge KEEP DUPLICATE --reason [--rerate]``."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        return merge.merge_players(engine(), text(values, "keep") or "",
                                   text(values, "duplicate") or "", reason=values.get("reason"),
                                   rerate=ticked(values, "rerate"), dry_run=dry_run,
                                   actor=actor())
    return previewed("merge", "Merge a player registered twice", MERGE, run)


@blueprint.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@require("correction.make")
def edit_player(player_id: int) -> tuple[str, int]:
    """``player edit #ID --name --fide-id ... --reason``: from now on; published lists stand."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        edit = player_edit.PlayerEdit(
            name=text(values, "name"), fide_id=number(values, "fide_id"),
            birth_year=number(values, "birth_year"), sex=_upper(values, "sex"),
            federation=_upper(values, "federation"), title=_upper(values, "title"),
            prior_games=number(values, "prior_games"),
            reached_2400=ticked(values, "reached_2400"),
            pool=parse_pool(values.get("pool") or "standard"))
        return player_edit.edit_player(engine(), f"#{player_id}", edit,
                                       reason=values.get("reason"), dry_run=dry_run,
                                       actor=actor())
    return previewed("edit", f"Edit player {player_id}", EDIT, run, subject=player_id)


WITHDRAW = (REASON,)
CORRECT_RATING = (Field("rating", "The corrected rating", required=True),
                  Field("period", "The closed period whose list published it (YYYY-MM)",
                        required=True), POOL, REASON)


@blueprint.route("/players/<int:player_id>/withdraw", methods=["GET", "POST"])
@require("correction.make")
def withdraw_player(player_id: int) -> tuple[str, int]:
    """``player withdraw #ID --reason``: registered by mistake (refused with a valid game)."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        return withdrawal.withdraw_player(engine(), f"#{player_id}", reason=values.get("reason"),
                                          dry_run=dry_run, actor=actor())
    return previewed("withdraw", f"Withdraw player {player_id}", WITHDRAW, run)


@blueprint.route("/players/<int:player_id>/correct-rating", methods=["GET", "POST"])
@require("correction.make")
def correct_rating(player_id: int) -> tuple[str, int]:
    """``player correct-rating #ID --rating --period --pool --reason``: FIDE's correction of a
    published rating, in force from the next period on."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        rating = number(values, "rating")
        if rating is None:
            raise InvalidInput("rating: give the corrected rating")
        return player_edit.correct_rating(
            engine(), f"#{player_id}", rating=rating, period=text(values, "period") or "",
            reason=values.get("reason"), dry_run=dry_run, actor=actor(),
            pool=parse_pool(values.get("pool") or "standard"))
    return previewed("rating", f"Correct a published rating of player {player_id}",
                     CORRECT_RATING, run)


@blueprint.route("/imports/<int:import_id>/revert", methods=["GET", "POST"])
@require("correction.make")
def revert_import(import_id: int) -> tuple[str, int]:
    """``imports revert ID --reason [--in-next-period | --rerate]``."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        in_next, rerate = effect(values)
        return revert.revert_import(engine(), str(import_id), reason=values.get("reason"),
                                    in_next_period=in_next, rerate=rerate, dry_run=dry_run,
                                    actor=actor())
    return previewed("revert", f"Take back import {import_id}", REVERT, run, subject=import_id)


#: A file held between its preview and its apply: its SHA-256.
_HELD = re.compile(r"[0-9a-f]{64}")


#: How long a file previewed and never applied is kept (seconds): a day.
HELD_FOR = 24 * 3600


def holding() -> Path:
    """The folder where a corrected file waits between its preview and its apply: the
    system's temporary folder, one of this user's (mode 0700), never a served one."""
    folder = Path(tempfile.gettempdir()) / f"ledger-replace-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _forget_old(now: float) -> None:
    """Let go of the files previewed more than ``HELD_FOR`` seconds before ``now`` and never
    applied."""
    for held in holding().iterdir():
        try:
            if now - held.stat().st_mtime > HELD_FOR:
                shutil.rmtree(held, ignore_errors=True)
        except OSError:  # gone meanwhile (another worker)
            continue


def _hold() -> Path:
    """The uploaded file (the form's ``file``) kept under ``holding()/SHA256/NAME``; its path.
    Raises ``InvalidInput`` for no file, and as a submission's upload is refused
    (``checking.refuse_upload``: over ``UPLOAD_LIMIT``, empty, binary or not UTF-8, not a
    format the readers know)."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise InvalidInput("file: choose the corrected file of the event")
    data = upload.stream.read(UPLOAD_LIMIT + 1)
    refuse_upload(upload.filename, data)
    _forget_old(time.time())
    folder = holding() / hashlib.sha256(data).hexdigest()
    folder.mkdir(mode=0o700, exist_ok=True)
    os.utime(folder)
    path = folder / safe_name(upload.filename)
    path.write_bytes(data)
    return path


def _held(values: Mapping[str, str]) -> Path:
    """The file a preview kept (the form's ``held``: its SHA-256). Raises ``InvalidInput`` for
    a malformed one, ``NotFound`` when it is no longer kept (preview it again)."""
    held = text(values, "held") or ""
    if not _HELD.fullmatch(held):
        raise InvalidInput("file: choose the corrected file of the event and preview it")
    found = sorted((holding() / held).glob("*")) if (holding() / held).is_dir() else []
    if not found:
        raise NotFound("file: the file previewed is no longer kept: choose it and preview again")
    return found[0]


@blueprint.route("/replace", methods=["GET", "POST"])
@require("correction.make")
def replace_event() -> tuple[str, int]:
    """``import FILE --replace --reason [mode] [--register-players]``: a POST with a file
    previews it (the difference game by game: added, removed, changed) and keeps it; the POST
    of the preview's button (``held``: its SHA-256) applies it and lets it go."""
    title = "Replace an event by its corrected file"
    page: dict[str, Any] = {"kind": "replace", "fields": REPLACE, "values": request.form,
                            "error": None, "report": None, "done": False, "held": None}
    if request.method == "GET":
        page["values"] = request.args
        return render("officer_correction.html", title, **page)
    values = request.form
    apply = "held" in values
    path: Path | None = None
    try:
        path = _held(values) if apply else _hold()
        in_next, rerate = effect(values)
        report = replace.replace_event(
            engine(), str(path), text(values, "format"), reason=values.get("reason"),
            in_next_period=in_next, rerate=rerate, dry_run=not apply,
            register_players=ticked(values, "register_players"), actor=actor())
    except LedgerError as exc:
        page.update(error=_as_named(str(exc), path),
                    problems=[_as_named(str(p), path) for p in getattr(exc, "problems", ())])
        return render("officer_correction.html", title, status=status_of(exc), **page)
    if apply:
        shutil.rmtree(path.parent, ignore_errors=True)
    page.update(report=report, done=apply, held=None if apply else path.parent.name,
                file_problems=[_as_named(str(p), path) for p in report.problems])
    return render("officer_correction.html", title, **page)


def _as_named(message: str, path: Path | None) -> str:
    """``message`` with the held file's path (``holding()/SHA256/NAME``) said as its name, as
    the officer chose it."""
    return message if path is None else message.replace(str(path), path.name)


#: The dashboard's "id" forms: where each goes.
_GO = {("game", "void"): "corrections.void", ("game", "correct"): "corrections.correct",
       ("player", "edit"): "corrections.edit_player", ("import", "revert"): "corrections.revert_import",
       ("player", "withdraw"): "corrections.withdraw_player",
       ("player", "correct-rating"): "corrections.correct_rating",
       ("event", "rename"): "events.rename", ("event", "void"): "events.void"}
_ARG = {"game": "game_id", "player": "player_id", "import": "import_id", "event": "event_id"}


@blueprint.get("/<any(game, player, import, event):what>")
@require("correction.make")
def go(what: str) -> Any:
    """The dashboard's forms (``?id=12&do=void``): to the correction's page of that id; an id
    that is not a number is the form again with the message (400)."""
    ref = (request.args.get("id") or "").strip().lstrip("#")
    chosen = request.args.get("do") or {"game": "void", "player": "edit", "import": "revert",
                                        "event": "rename"}[what]
    endpoint = _GO.get((what, chosen))
    if endpoint is None or not ref.isascii() or not ref.isdigit() or len(ref) > 12:
        return render("officer_correction.html", "Correction", status=400, kind=what,
                      fields=(), values={}, report=None, done=False,
                      error=f"{what}: {ref!r} is not an id (the number the lists show)")
    arguments: dict[str, Any] = {_ARG[what]: int(ref)}
    return redirect(url_for(endpoint, **arguments))
