"""Fuzz the input edges: mutated scenario files, target files and bad CLI values.

Usage::

    .venv/bin/python bench/fuzz.py [--files 5000] [--cli 600] [--seed 18] [--budget 5]

A seeded generator mutates the built-in case studies (structure, types,
numbers, ids, text, raw bytes) and the bundled targets file, and builds bad
``--set``/option values for every parameter of every experiment. Each input
goes through the real edge — ``scenario_io.load`` (then issues, save and
the run path), ``calibration.load_targets`` (then the evaluator) and
``app.cli.main`` — and must end in a result or one clear refusal: no
traceback, no hang (``--budget`` seconds each, by SIGALRM), no exit status
other than 0 or 2. Runs of inputs that were accepted are started with the
cancel flag already set, so the model is built and stops at its first
progress report (a fuzz run must not take hours on a valid but huge value).

It prints the counts and the first crashes; ``tests/app/test_fuzz.py`` runs
a few hundred of each in the test suite. Exit status 1 if anything crashed
or hung.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import cli, scenario_io  # noqa: E402
from models import experiments  # noqa: E402
from models.drawing import components
from models.studies import calibration
from models.core.resources import TARGETS  # noqa: E402
from models.core.run import Cancelled, NotImplementedYet  # noqa: E402
from models.core.params import ParamError  # noqa: E402

DEEP = "[" * 3000 + "]" * 3000
NASTY = [None, True, False, 0, -1, 1, 2 ** 63, 10 ** 30, 1e308, -1e308, 1e-320, 0.5, "", " ",
         "x" * 5000, "n²", "\ud800", "\udfff", "a\x00b", "\x1b[31m", "NaN", "Infinity", "1e400",
         {}, [], [[[[[]]]]], {"a": {"b": {"c": {}}}}, [1, 2, 3], {"": None}, "l٣", "n" + "7" * 400]
#: Raw JSON text put in place of a value (what json.dumps cannot write).
RAW = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 400, "-" + "9" * 400, "1" + "0" * 5000,
       DEEP, '"\\ud800"', "[" * 40 + "]" * 40, "0." + "0" * 400 + "1", "1E+999"]
BAD_CLI = ["", " ", "abc", "-1", "0", "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
           "9" * 400, "-" + "9" * 400, "1" * 5000, "null", "true", "false", "[]", "{}", "[1,2]",
           '{"read": NaN}', '{"read": 1e308}', '{"read": -5}', '{"nope": 1}', '"quoted"',
           "x" * 100_000, "\x1b[31mred", "a\nb", "\ud800", "n²", "٣", "0x10", "1_000", "1e3",
           "3.5", "-0", "1/0", "[" * 5000, DEEP, '{"a":' * 100 + "1" + "}" * 100]


class Hang(BaseException):
    """Raised by the alarm: an input took longer than its budget."""


class Accepted(BaseException):
    """The run path was reached with a value the edge accepted."""


@dataclass
class Tally:
    """What happened to the inputs of one kind."""

    total: int = 0
    ok: int = 0
    refused: int = 0
    crashes: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    seconds: float = 0.0

    def line(self, name: str) -> str:
        return (f"{name:10} {self.total:6} inputs: {self.ok:6} accepted, {self.refused:6} refused "
                f"with one line, {len(self.crashes)} crashes, {len(self.hangs)} hangs "
                f"({self.seconds:.1f} s)")


@contextlib.contextmanager
def budget(seconds: float):
    """Raise :class:`Hang` after ``seconds`` (main thread, POSIX)."""
    def ring(signum, frame):
        raise Hang(f"over {seconds} s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def cancelled_runs(accept: bool):
    """Runs start with the cancel flag set; ``accept``: raise Accepted instead."""
    real = experiments.run_experiment

    def run(name, overrides=None, seed=experiments.DEFAULT_SEED, trace=False, progress=None,
            cancel=None, scenario=None):
        flag = threading.Event()
        flag.set()
        try:
            return real(name, overrides, seed=seed, trace=trace, scenario=scenario,
                        cancel=flag, progress=progress or (lambda f: None))
        except Cancelled:
            if accept:
                raise Accepted() from None
            raise
    experiments.run_experiment = run
    try:
        yield
    finally:
        experiments.run_experiment = real


# ---- generators --------------------------------------------------------------------
def _paths(doc, prefix=()):
    """Every (path, value) in a JSON tree."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _set(doc, path, value):
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _mutate_tree(rng: random.Random, doc):
    paths = list(_paths(doc))
    path, value = rng.choice(paths)
    choice = rng.random()
    if choice < 0.45:
        return _set(doc, path, copy.deepcopy(rng.choice(NASTY))), None
    if choice < 0.6 and path:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        return doc, None
    if choice < 0.7 and isinstance(value, list) and value:
        value.append(copy.deepcopy(rng.choice(value)))             # duplicate ids
        return doc, None
    if choice < 0.8:
        marker = "__RAW_%d__" % rng.randrange(10 ** 9)
        return _set(doc, path, marker), (marker, rng.choice(RAW))
    if choice < 0.87 and isinstance(value, dict) and "kind" in value:
        value["kind"] = rng.choice(list(components.KINDS) + ["nope", "", "vol_raid"])
        return doc, None
    if choice < 0.93 and isinstance(value, dict) and "properties" in value:
        props = value["properties"] if isinstance(value["properties"], dict) else {}
        names = [p.name for e in experiments.registry().values() for p in e.schema.params]
        props[rng.choice(names + ["speed", "aliases", "cache_gb"])] = copy.deepcopy(
            rng.choice(NASTY + [[4096] * 30_000, {"read": 1e308}, 10 ** 7]))
        value["properties"] = props
        return doc, None
    if isinstance(doc, dict):
        doc["experiment"] = rng.choice(list(experiments.registry()) + [None, "warp"])
    return doc, None


def _text_mutation(rng: random.Random, text: str) -> bytes:
    data = bytearray(text.encode("utf-8"))
    kind = rng.randrange(5)
    if kind == 0 and data:
        del data[rng.randrange(len(data)):]                        # truncated
    elif kind == 1 and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)     # flipped bytes
    elif kind == 2:
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.choice([b"NaN", b"\xff\xfe", b"\x00", DEEP.encode(), b",", b"}"])
    elif kind == 3:
        data = bytearray(b"\xef\xbb\xbf") + data                   # BOM
    else:
        data = data * 2
    return bytes(data)


def scenario_inputs(rng: random.Random, n: int):
    """``n`` mutated scenario files as bytes."""
    bases = [scenario_io.to_document(scenario_io.load_case(name))
             for name in scenario_io.case_names()]
    for base in list(bases):
        old = copy.deepcopy(base)
        old["version"] = 1
        bases.append(old)
    for _ in range(n):
        yield _mutated(rng, copy.deepcopy(rng.choice(bases)), 0.2)


def _mutated(rng: random.Random, doc, text_share: float) -> bytes:
    """``doc`` with 1-3 tree mutations, then a text mutation ``text_share`` of the time."""
    raws = []
    for _ in range(rng.randint(1, 3)):
        doc, raw = _mutate_tree(rng, doc)
        if raw:
            raws.append(raw)
    text = json.dumps(doc)
    for marker, literal in raws:
        text = text.replace(json.dumps(marker), literal)
    return _text_mutation(rng, text) if rng.random() < text_share else text.encode("utf-8")


def target_inputs(rng: random.Random, n: int):
    """``n`` mutated target files as bytes."""
    base = json.loads(TARGETS.read_text(encoding="utf-8"))
    for _ in range(n):
        doc = copy.deepcopy(base)
        doc["targets"] = rng.sample(doc["targets"], k=min(3, len(doc["targets"])))
        yield _mutated(rng, doc, 0.15)


def cli_inputs(rng: random.Random, n: int):
    """``n`` argument lists with a bad value somewhere."""
    params = [(e.name, p) for e in experiments.registry().values() for p in e.schema.params]
    for _ in range(n):
        roll = rng.random()
        if roll < 0.8:
            exp, p = rng.choice(params)
            value = rng.choice(BAD_CLI)
            if p.kind in ("int", "float") and p.max is not None and rng.random() < 0.3:
                value = rng.choice([str(p.max + 1), str(p.max * 10), str(p.min - 1 if p.min is not
                                    None else -1), str(p.max) + ".5"])
            yield ["run", exp, "--set", f"{p.name}={value}"]
        elif roll < 0.85:
            yield ["run", rng.choice(list(experiments.registry())), "--seed", rng.choice(BAD_CLI)]
        elif roll < 0.9:
            yield ["history", "--limit", rng.choice(BAD_CLI)]
        elif roll < 0.95:
            yield ["gui", "--size", rng.choice(BAD_CLI + ["0x0", "1x1", "99999x1", "12x", "x9"])]
        else:
            yield ["run", rng.choice(BAD_CLI)]


# ---- harness -----------------------------------------------------------------------
def _crash(tally: Tally, what, exc: BaseException) -> None:
    tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
    tally.crashes.append((what, "".join(tb[-3:]).strip()))


def check_scenario(data: bytes, folder: Path, tally: Tally, seconds: float) -> None:
    path = folder / "fuzz.zpl.json"
    path.write_bytes(data)
    tally.total += 1
    try:
        with budget(seconds), cancelled_runs(accept=False):
            try:
                sc = scenario_io.load(path, [])
            except scenario_io.ScenarioFileError as exc:
                _one_line(str(exc))
                tally.refused += 1
                return
            sc.issues()
            try:
                scenario_io.save(sc, folder / "saved.zpl.json")
            except scenario_io.ScenarioFileError as exc:
                _one_line(str(exc))
            if sc.experiment:
                try:
                    experiments.run_experiment(sc.experiment, {}, scenario=sc)
                except (ParamError, NotImplementedYet, Cancelled) as exc:
                    _one_line(str(exc))
            tally.ok += 1
    except Hang as exc:
        tally.hangs.append((data[:200], str(exc)))
    except Exception as exc:  # noqa: BLE001 - what the fuzz is looking for
        _crash(tally, data[:300], exc)


def check_targets(data: bytes, folder: Path, tally: Tally, seconds: float) -> None:
    path = folder / "targets.json"
    path.write_bytes(data)
    tally.total += 1
    try:
        with budget(seconds), cancelled_runs(accept=False):
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                try:
                    targets = calibration.load_targets(path)
                except calibration.TargetsError as exc:
                    _one_line(str(exc))
                    tally.refused += 1
                    return
                ev = calibration.Evaluator()
                for t in targets[:2]:
                    ev.evaluate(t)
            tally.ok += 1
    except Hang as exc:
        tally.hangs.append((data[:200], str(exc)))
    except Exception as exc:  # noqa: BLE001
        _crash(tally, data[:300], exc)


def check_cli(argv: list, tally: Tally, seconds: float) -> None:
    tally.total += 1
    err = io.StringIO()
    try:
        with budget(seconds), cancelled_runs(accept=True), contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            try:
                code = cli.main(argv)
            except SystemExit as exc:          # argparse
                code = exc.code
    except Accepted:
        tally.ok += 1
        return
    except Hang as exc:
        tally.hangs.append((argv, str(exc)))
        return
    except Exception as exc:  # noqa: BLE001
        _crash(tally, argv, exc)
        return
    text = err.getvalue()
    if code not in (0, 2) or "Traceback" in text or (code == 2 and text.count("\n") != 1):
        tally.crashes.append((_short(argv), f"exit {code}: {text[-300:]}"))
    elif code == 2:
        tally.refused += 1
    else:
        tally.ok += 1


def _one_line(text: str) -> None:
    if "\n" in text or len(text) > 1000:
        raise AssertionError(f"not one short line: {text[:200]!r}")


def _short(argv):
    return [a if len(a) < 60 else a[:57] + "…" for a in argv]


def run(files: int, cli_values: int, seed: int, seconds: float = 5.0,
        targets: int | None = None) -> dict[str, Tally]:
    """Fuzz; returns a :class:`Tally` per kind of input."""
    rng = random.Random(seed)
    out = {"scenarios": Tally(), "targets": Tally(), "cli": Tally()}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, gen, check in (
                ("scenarios", scenario_inputs(rng, files), check_scenario),
                ("targets", target_inputs(rng, files if targets is None else targets),
                 check_targets)):
            t0 = time.perf_counter()
            for data in gen:
                check(data, folder, out[name], seconds)
            out[name].seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        os.environ.setdefault("ZPERFLAB_DATA_DIR", str(folder / "data"))
        for argv in cli_inputs(rng, cli_values):
            check_cli(argv, out["cli"], seconds)
        out["cli"].seconds = time.perf_counter() - t0
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=5000, help="mutated scenario and target files each")
    ap.add_argument("--cli", type=int, default=1000, help="bad command lines")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--budget", type=float, default=5.0, help="seconds per input before a hang")
    args = ap.parse_args()
    t0 = time.perf_counter()
    tallies = run(args.files, args.cli, args.seed, args.budget)
    for name, tally in tallies.items():
        print(tally.line(name))
    crashes = sum(len(t.crashes) for t in tallies.values())
    hangs = sum(len(t.hangs) for t in tallies.values())
    print(f"total: {crashes} crashes, {hangs} hangs in {time.perf_counter() - t0:.0f} s "
          f"(seed {args.seed})")
    for name, tally in tallies.items():
        for what, why in (tally.crashes + tally.hangs)[:5]:
            print(f"\n[{name}] {str(what)[:200]}\n{why}")
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
