"""docs/commands.md against the command line itself (issue 21 §7): every command ``ledger
--help`` lists, with every option and argument, is in the reference, and everything the
reference names still exists; and every ``ledger ...`` the README and the other pages of docs/
show names a command and options that exist.

The reference is a table, one row per command (or per form of one: ``ledger import FILE
--replace ...``), whose first cell holds the command's synopsis as code: ``ledger player add
"Surname, Name" [--fide-id N] ...``. A command's *entry* is every synopsis naming it. The tree
is walked through Click, as ``--help`` shows it (``typer.main.get_command``; hidden options and
commands excepted); the app's own options (``--db``, ``--by`` ...) belong to the text above the
table.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import typer
import typer.main

from ledger.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "commands.md"

#: A code span of Markdown (one backtick), and an option in any text.
CODE = re.compile(r"`([^`]+)`")
OPTION = re.compile(r"(?<![\w-])--[a-z0-9][a-z0-9-]*")
#: A word of a synopsis: a quoted name ("Surname, Name") or a run of anything but blanks.
WORD = re.compile(r'"[^"]*"|\S+')


@dataclass
class Command:
    """One command of the tree: its path (``("player", "add")``), its options by every name
    they answer to (``--reached-2400``), those that take a value, and its arguments."""

    path: tuple[str, ...]
    options: set[str] = field(default_factory=set)
    takes_value: set[str] = field(default_factory=set)
    arguments: list[str] = field(default_factory=list)
    subcommands: set[str] = field(default_factory=set)
    #: A group that also runs by itself (``ledger imports`` lists, ``ledger imports revert``
    #: reverts): it needs a row of its own, as a command does.
    runs_alone: bool = False

    @property
    def group(self) -> bool:
        return bool(self.subcommands)

    @property
    def name(self) -> str:
        return " ".join(("ledger", *self.path))


@functools.cache  # loading every command takes a second; the tree is only read
def cli_tree(root: typer.Typer = app) -> dict[tuple[str, ...], Command]:
    """Every command and group of ``root`` (the ledger's app unless another is given) by its
    path (the app itself at ``()``), as ``--help`` lists them."""
    found: dict[tuple[str, ...], Command] = {}

    def walk(command: object, path: tuple[str, ...]) -> None:
        entry = found[path] = Command(
            path, runs_alone=bool(getattr(command, "invoke_without_command", False)))
        for param in getattr(command, "params", []):
            if param.param_type_name == "argument":
                entry.arguments.append(param.name)
            elif param.param_type_name == "option" and not param.hidden:
                names = {*param.opts, *param.secondary_opts}
                entry.options |= names
                if not param.is_flag:
                    entry.takes_value |= names
        if isinstance(command, typer.main.TyperGroup):
            ctx = typer.Context(command, info_name=path[-1] if path else "ledger")
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if not getattr(sub, "hidden", False):
                    entry.subcommands.add(name)
                    walk(sub, (*path, name))

    walk(typer.main.get_command(root), ())
    return found


@dataclass
class Synopsis:
    """A code span of the reference that starts with ``ledger``: where it is (``line``), the
    command it names, the options and the positional words (arguments) it shows, and whether it
    continues another synopsis (``ledger list ... --format``: its arguments are not repeated)."""

    text: str
    line: int
    path: tuple[str, ...] | None  # None: it names no command that exists
    options: list[str]
    positionals: list[str]
    continued: bool


def parse_synopsis(text: str, line: int, tree: dict[tuple[str, ...], Command]) -> Synopsis:
    """``text`` (``ledger game void ID --reason TEXT [--in-next-period | --rerate]``) read
    against the tree: the longest run of words after ``ledger`` that is a command path (the
    app's own options and their values skipped: ``ledger --db t.db init``), then its options
    and the words that are neither an option nor an option's value."""
    words = [w.strip("[]()") for w in WORD.findall(text.replace("\\|", "|"))][1:]
    root = tree[()]
    while words and words[0] in root.options:
        words = words[2:] if words[0] in root.takes_value else words[1:]
    path: tuple[str, ...] = ()
    while words and words[0] in tree[path].subcommands:
        path, words = (*path, words[0]), words[1:]
    command = tree[path]
    # A group followed by a word spelt as a command is a command that no longer exists
    # (``ledger event rename``); ``ledger --db PATH COMMAND ...`` is the app itself.
    stale = command.group and bool(words) and bool(re.fullmatch(r"[a-z][a-z0-9-]*", words[0]))
    continued = bool(words) and words[0] == "..."
    options: list[str] = []
    positionals: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("--"):
            options.append(word)
            skip = word in command.takes_value
        elif word and word not in ("|", "...") and not word.startswith("-"):
            positionals.append(word)
    return Synopsis(text, line, None if stale else path, options, positionals, continued)


@dataclass
class Reference:
    """The reference as the check reads it: the text above the table (the app's own options),
    the synopses of the table's first column, each row's other text (with the paths of its
    synopses), and every ``ledger ...`` and option named anywhere."""

    preamble: str
    synopses: list[Synopsis]
    rows: list[tuple[list[Synopsis], str]]
    everywhere: list[Synopsis]
    options_named: set[str]


def read_reference(text: str, tree: dict[tuple[str, ...], Command]) -> Reference:
    lines = text.splitlines()
    first_row = next(i for i, line in enumerate(lines) if line.startswith("| command |"))
    preamble = "\n".join(lines[:first_row])
    synopses: list[Synopsis] = []
    rows: list[tuple[list[Synopsis], str]] = []
    for number, line in enumerate(lines[first_row + 2:], first_row + 3):
        if not line.startswith("|"):
            break
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        named = [parse_synopsis(code, number, tree) for code in CODE.findall(cells[0])
                 if code.startswith("ledger ")]
        synopses += named
        rows.append((named, "|".join(cells[1:])))
    everywhere = [parse_synopsis(span, number, tree) for number, span in ledger_mentions(text)]
    return Reference(preamble, synopses, rows, everywhere, set(OPTION.findall(text)))


def ledger_mentions(text: str) -> list[tuple[int, str]]:
    """Every ``ledger ...`` of a Markdown page, with its line: the code spans of its text, and
    the lines of its fenced blocks that start with ``ledger``."""
    found: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        spans = [line.strip()] if fenced else CODE.findall(line)
        found += [(number, span) for span in spans if span.startswith("ledger ")]
    return found


def problems(text: str, tree: dict[tuple[str, ...], Command] | None = None) -> list[str]:
    """What the reference ``text`` lacks or names wrongly, one sentence each; [] when it is
    complete and current (against ``tree``, by default the ledger's own)."""
    tree = tree or cli_tree()
    ref = read_reference(text, tree)
    found: list[str] = []
    entries: dict[tuple[str, ...], list[Synopsis]] = {}
    for synopsis in ref.synopses:
        if synopsis.path is not None:
            entries.setdefault(synopsis.path, []).append(synopsis)
    for path, command in sorted(tree.items()):
        if not path:
            found += [f"the app's option {o} is not above the table" for o in
                      sorted(command.options) if o not in set(OPTION.findall(ref.preamble))]
            continue
        if command.group and not (command.runs_alone or command.options or command.arguments):
            continue
        entry = entries.get(path)
        if not entry:
            found.append(f"`{command.name}` has no row")
            continue
        shown = {o for s in entry for o in s.options}
        found += [f"`{command.name}` {o} is missing from its row" for o in
                  sorted(command.options) if o not in shown and o != "--help"]
        whole = [s for s in entry if not s.continued]
        if not any(len(s.positionals) == len(command.arguments) for s in whole):
            found.append(f"`{command.name}` takes {len(command.arguments)} argument(s) "
                         f"({', '.join(command.arguments) or 'none'}), its row shows "
                         f"{[s.positionals for s in whole]}")
    for synopsis in ref.everywhere:
        if synopsis.path is None:
            found.append(f"line {synopsis.line}: `{synopsis.text}` names no command")
            continue
        command = tree[synopsis.path]
        found += [f"line {synopsis.line}: `{command.name}` has no option {o}"
                  for o in synopsis.options if o not in command.options | tree[()].options]
    every_option = {o for c in tree.values() for o in c.options} | {"--help"}
    found += [f"{o} is no option of any command" for o in sorted(ref.options_named - every_option)]
    for named, rest in ref.rows:
        # A row's text speaks of its own command's options, or of another command's when a
        # code span names it (`list --revision` in the row of `ledger period reopen`).
        allowed = {o for s in named if s.path is not None for o in tree[s.path].options}
        for span in CODE.findall(rest):
            if span.split()[0] in tree[()].subcommands:
                other = parse_synopsis(f"ledger {span}", 0, tree)
                if other.path is not None:
                    found += [f"the row of `{named[0].text}` says `{span}`: no such option"
                              for o in other.options if o not in tree[other.path].options]
                    rest = rest.replace(f"`{span}`", "")
        found += [f"the row of `{named[0].text}` mentions {o}, no option of its command"
                  for o in sorted(set(OPTION.findall(rest)) - allowed - tree[()].options)
                  if named]
    return found


def stale_mentions(text: str) -> list[str]:
    """The ``ledger ...`` of a page (``ledger_mentions``) that name a command or an option that
    does not exist."""
    tree = cli_tree()
    found: list[str] = []
    for number, span in ledger_mentions(text):
        synopsis = parse_synopsis(span, number, tree)
        if synopsis.path is None:
            found.append(f"line {number}: `{span}` names no command")
            continue
        known = tree[synopsis.path].options | tree[()].options | {"--help"}
        found += [f"line {number}: `{span}`: no option {o}" for o in synopsis.options
                  if o not in known]
    return found


def test_every_page_names_only_commands_and_options_that_exist() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = [f"{page.relative_to(ROOT)} {problem}" for page in pages
             for problem in stale_mentions(page.read_text(encoding="utf-8"))]
    assert found == [], "\n".join(found)
    # what it reads: code spans, and the lines of fenced blocks
    assert stale_mentions("`ledger game add` or `ledger game remove 3`\n```sh\nledger init\n"
                          "ledger site build out --theme dark\n```\nledger init is prose") == [
        "line 1: `ledger game remove 3` names no command",
        "line 4: `ledger site build out --theme dark`: no option --theme"]


def test_the_reference_names_every_command_and_option_and_nothing_else() -> None:
    found = problems(REFERENCE.read_text(encoding="utf-8"))
    assert found == [], "docs/commands.md and the command line disagree:\n" + "\n".join(found)


# ------------------------------------------------------------------------------------------------
# The check finds what it is for: the real reference, changed in one place each time.


def _changed(old: str, new: str) -> list[str]:
    text = REFERENCE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    # without the line numbers, which move as rows are added
    return [re.sub(r"^line \d+: ", "", p) for p in problems(text.replace(old, new))]


def test_an_option_left_out_of_a_row_is_found() -> None:
    assert _changed("[--reached-2400] [--reached-2300] [--rapid-rating R]",
                    "[--reached-2400] [--rapid-rating R]") == [
        "`ledger player add` --reached-2300 is missing from its row"]


def test_a_command_without_a_row_is_found() -> None:
    row = next(line for line in REFERENCE.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `ledger calc table"))
    assert _changed(row + "\n", "") == ["`ledger calc table` has no row"]


def test_a_missing_argument_is_found() -> None:
    assert _changed("`ledger whatif PLAYER OPPONENT", "`ledger whatif PLAYER") == [
        "`ledger whatif` takes 2 argument(s) (player, opponent), its row shows [['PLAYER']]"]


def test_a_command_or_option_that_no_longer_exists_is_found() -> None:
    assert _changed("| `ledger init` |", "| `ledger event split EVENT DATE` |") == [
        "`ledger init` has no row",
        "`ledger event split EVENT DATE` names no command"]
    assert _changed("[--step 10] [--max 800]", "[--step 10] [--max 800] [--width]") == [
        "`ledger calc table` has no option --width",
        "--width is no option of any command"]
    # in the examples below the table, and in a row's text about another command
    assert _changed("--list-date 2013-05-01 --pool blitz", "--list-day 2013-05-01 --pool blitz") \
        == ["`ledger import` has no option --list-day", "--list-day is no option of any command"]
    assert _changed("(`list --revision` shows it)", "(`list --version-of N` shows it)") == [
        "--version-of is no option of any command",
        "the row of `ledger period reopen YYYY-MM --reason TEXT [--pool P] [--dry-run] [--json]` "
        "says `list --version-of N`: no such option"]


def test_a_group_that_runs_by_itself_needs_its_row() -> None:
    # ``ledger imports`` as issue 21 §3 has it: a group that lists, with a command below it.
    demo = typer.Typer()
    imports = typer.Typer(invoke_without_command=True)

    @imports.callback()
    def listing(json: bool = typer.Option(False, "--json", help="JSON.")) -> None:
        """Every import."""

    @imports.command("revert")
    def revert(import_id: int, reason: str = typer.Option(..., "--reason", help="Why.")) -> None:
        """Revert an import."""

    @demo.command("init")
    def init() -> None:
        """Create the ledger."""

    demo.add_typer(imports, name="imports")
    tree = cli_tree(demo)
    assert tree[("imports",)].runs_alone and tree[("imports",)].options == {"--json"}
    reference = ("Above: `--install-completion`, `--show-completion`.\n\n| command | what |\n|---|---|\n"
                 "| `ledger init` | create |\n| `ledger imports revert ID --reason TEXT` | revert |\n")
    assert problems(reference, tree) == ["`ledger imports` has no row"]
    with_row = reference + "| `ledger imports [--json]` | every import |\n"
    assert problems(with_row, tree) == []
