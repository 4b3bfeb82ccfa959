"""Issue 39: a mutation fuzz of the real reports the tests hold, bounded in time.

The sample listing and XML, the REDP-4862 excerpts and the real z/OS 2.5 DDS
answers (``../shared/rmf``) are cut short, lose, repeat and swap lines, get
numbers swapped or replaced by what RMF never prints (NaN, inf, negative,
400 digits) and bytes flipped. Every mutant is read (or refused with the
reader's one error type, :class:`RmfError`: never another exception), and
a sample goes through ``import-rmf`` itself: status 0 or 2, one line naming
the file, no NaN or Infinity in a file written and every file written one
the app's own loader takes, the old file untouched when the import fails. Seeded: a failure names the seed and the mutation.
"""
import json
import random
import re
import time
from pathlib import Path

from app import scenario_io
from app.cli import main
from models.rmf import RmfError, read_reports

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "rmf"
SHARED = ROOT.parent / "shared" / "rmf"
if not SHARED.is_dir():                          # a worktree beside /work/shared
    SHARED = Path("/work/shared/rmf")
CORPUS = sorted(DATA.glob("*.txt")) + sorted(DATA.glob("*.xml")) + \
    sorted(SHARED.glob("*.txt")) + sorted(SHARED.glob("dds-zos25/*.xml"))
#: What RMF never prints, put where a number stood.
NASTY = ["nan", "NaN", "inf", "-inf", "Infinity", "-1", "-0.5", "1e999", "9" * 400, "1" * 25,
         "****", "N/A", "", "0x10", "1,5", "\u0661\u0662", "99999999", "101.5", "\x00"]
NUMBER = re.compile(rb"\d+\.?\d*")


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of ``data`` and what it was."""
    lines = data.split(b"\n")
    op = rng.randrange(7)
    numbers = list(NUMBER.finditer(data)) if op in (3, 4) else []
    if op == 0:
        cut = rng.randrange(len(data))
        return data[:cut], f"cut at byte {cut}"
    if op == 1 and len(lines) > 1:
        k = rng.randrange(len(lines))
        return b"\n".join(lines[:k] + lines[k + 1:]), f"line {k + 1} deleted"
    if op == 2:
        k = rng.randrange(len(lines))
        return b"\n".join(lines[:k + 1] + lines[k:]), f"line {k + 1} repeated"
    if op == 3 and len(numbers) > 1:
        a, b = sorted(rng.sample(numbers, 2), key=lambda m: m.start())
        return (data[:a.start()] + b.group() + data[a.end():b.start()] + a.group() +
                data[b.end():]), f"numbers {a.group()!r} and {b.group()!r} swapped"
    if op == 4 and numbers:
        m, new = rng.choice(numbers), rng.choice(NASTY)
        return data[:m.start()] + new.encode() + data[m.end():], \
            f"{m.group()!r} at byte {m.start()} became {new[:12]!r}"
    if op == 5:
        flipped = bytearray(data)
        for _ in range(rng.randrange(1, 6)):
            flipped[rng.randrange(len(flipped))] = rng.randrange(256)
        return bytes(flipped), "bytes flipped"
    k, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[k], lines[j] = lines[j], lines[k]
    return b"\n".join(lines), f"lines {k + 1} and {j + 1} swapped"


def _mutants(seed: int, count: int, tmp_path: Path):
    rng = random.Random(seed)
    originals = {f: f.read_bytes() for f in CORPUS}
    for i in range(count):
        f = rng.choice(CORPUS)
        data, what = mutate(originals[f], rng)
        p = tmp_path / f"m{i}{f.suffix}"
        p.write_bytes(data)
        yield p, f"{f.name}: {what} (seed {seed}, mutant {i})"


def test_the_corpus_is_the_real_reports():
    names = {f.name for f in CORPUS}
    assert {"sysa-0900-full.txt", "sysa-0900-full.xml", "zebra-zos25-cpu-excerpt.xml"} <= names
    # the real z/OS 2.5 answers are fuzzed too: CI has ../shared beside the checkout
    assert {"device.xml", "cache.xml", "chan.xml", "cpu.xml"} <= names


def test_every_mutant_reads_or_is_refused_with_the_readers_error(tmp_path):
    start, crashes, refused = time.monotonic(), [], 0
    for p, what in _mutants(39, 1500, tmp_path):
        try:
            read_reports([p])
        except RmfError as e:
            refused += 1
            assert e.file == str(p), (what, str(e))
        except Exception as e:                        # noqa: BLE001 (what the test is for)
            crashes.append(f"{what}: {type(e).__name__}: {e}"[:300])
        p.unlink()
    assert crashes == [], crashes[:5]
    assert 300 < refused < 1500                       # the mutations bite, not all of them
    assert time.monotonic() - start < 60


def _no_constant(name):
    raise AssertionError(f"{name} written into the scenario file")


def test_import_rmf_on_mutants_writes_no_nan_and_keeps_the_old_file(tmp_path, capsys):
    out = tmp_path / "shop.zpl.json"
    old = b'{"an": "earlier import"}\n'
    codes = {0: 0, 2: 0}
    for p, what in _mutants(390, 150, tmp_path):
        out.write_bytes(old)
        code = main(["import-rmf", str(p), "--out", str(out)])
        cap = capsys.readouterr()
        assert code in (0, 2), (what, code, cap.err[-300:])
        codes[code] += 1
        if code == 0:
            json.loads(out.read_text(), parse_constant=_no_constant)
            scenario_io.load(out)              # a file 'run' takes, every value in range
        else:
            assert cap.err.startswith(f"zperflab: error: {p}"), (what, cap.err)
            assert cap.err.count("\n") == 1, (what, cap.err)
            assert out.read_bytes() == old, what
    assert codes[0] > 20 and codes[2] > 20, codes
