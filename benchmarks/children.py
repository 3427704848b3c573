"""The benchmark's child processes and samples: every ledger step runs through the CLI in a child
process, timed (wall seconds) with its own peak RSS by ``benchmarks.launch``; ``Samples`` holds
one measure's values over the runs (median, min-max)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


def ledger_command() -> list[str]:
    """The ``ledger`` command of this Python (its script, else ``python -m ledger``)."""
    script = Path(sys.executable).parent / "ledger"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ledger"]


@dataclass
class Child:
    """One child process: wall seconds, peak RSS in MB (``ru_maxrss`` of that child alone,
    through ``benchmarks.launch``) and CPU seconds (user + system; less than the wall time on a
    shared machine)."""

    seconds: float
    rss_mb: float
    cpu: float


def child(args: list[str], stdout: Path | None = None) -> Child:
    """Run ``args`` through ``benchmarks.launch`` (its own wall time and peak RSS, not counting
    the benchmark's memory it started as a copy of: see that module) and wait for it; raise on
    failure. The child may write bytecode caches (``PYTHONDONTWRITEBYTECODE`` dropped), as an
    installed package has them: else every start-up compiles the ledger's sources again."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"COLUMNS": "160", "LEDGER_USER": "bench"}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as measured, \
            (stdout.open("wb") if stdout else open(os.devnull, "wb")) as out:
        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.launch", measured.name, *args],
                                stdout=out, stderr=err, env=env)
        if proc.wait() != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)}: exit {proc.returncode}\n"
                             f"{err.read().decode(errors='replace')[-3000:]}")
        seconds, rss_kib, cpu = measured.read().split()
    return Child(float(seconds), int(rss_kib) / 1024, float(cpu))


@dataclass
class Samples:
    """The samples of one measure, in seconds (or MB, or ms)."""

    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def shown(self, unit: str, scale: float = 1.0, digits: int = 2) -> str:
        med, lo, hi = (v * scale for v in (self.median, min(self.values), max(self.values)))
        if len(self.values) == 1:
            return f"{med:.{digits}f} {unit}"
        return f"{med:.{digits}f} {unit} ({lo:.{digits}f}-{hi:.{digits}f})"


def ledger(db: str, *args: str, stdout: Path | None = None) -> Child:
    return child([*ledger_command(), "--db", db, *args], stdout)


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (1..99) of ``values`` (``statistics.quantiles``, inclusive)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]

