"""``npu-sim plan-memory``: the Pisarchyk & Lee (2020) example, CSV out, and one
one-line error (non-zero exit) per kind of bad row."""
from __future__ import annotations

import csv

import pytest

from frontend.cli import main

# Pisarchyk & Lee 2020, "Efficient memory management for deep neural net inference",
# worked example: (first op, last op, size); lifetimes are inclusive there, so the
# half-open interchange row is [first, last + 1).
PISARCHYK = [(0, 1, 32), (1, 4, 28), (2, 5, 36), (3, 5, 16), (4, 5, 8), (5, 7, 64), (6, 8, 10), (7, 8, 40)]


def _write(tmp_path, text: str):
    p = tmp_path / "buffers.csv"
    p.write_text(text)
    return p


def test_pisarchyk_example_reaches_lower_bound(tmp_path, capsys):
    rows = "id,lower,upper,size\n" + "".join(f"t{k},{a},{b + 1},{s}\n" for k, (a, b, s) in enumerate(PISARCHYK))
    out = tmp_path / "offsets.csv"
    rc = main(["plan-memory", str(_write(tmp_path, rows)), "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0
    assert "arena 124 B" in text and "lower bound 124 B" in text and "ratio 1.000" in text
    got = list(csv.DictReader(out.open()))
    assert [r["id"] for r in got] == [f"t{k}" for k in range(8)]
    place = {r["id"]: (int(r["lower"]), int(r["upper"]), int(r["size"]), int(r["offset"])) for r in got}
    assert max(o + s for _, _, s, o in place.values()) == 124
    for a, (la, ua, sa, oa) in place.items():
        for b, (lb, ub, sb, ob) in place.items():
            if a < b and la < ub and lb < ua:
                assert oa + sa <= ob or ob + sb <= oa, (a, b)


def test_prints_table_without_out(tmp_path, capsys):
    rc = main(["plan-memory", str(_write(tmp_path, "a,0,2,10\nb,1,3,20\n"))])
    text = capsys.readouterr().out
    assert rc == 0 and "arena 30 B" in text and "offset" in text


@pytest.mark.parametrize("text, needle", [
    ("a,0,2\n", "line 1: expected 4 columns"),
    ("a,0,2,10\nb,0,x,4\n", "line 2: buffer 'b': lower, upper and size must be integers"),
    ("a,0,2,2.5\n", "line 1: buffer 'a': lower, upper and size must be integers"),
    ("name,start,end,bytes\na,0,2,8\n", "line 1: a header must be id,lower,upper,size, got name,start,end,bytes"),
    ("id,lower,upper,size\na,0,2,-1\n", "line 2: buffer 'a': negative size -1"),
    ("a,3,3,8\n", "line 1: buffer 'a': lower 3 >= upper 3"),
    ("a,0,2,8\na,1,4,8\n", "line 2: duplicate id 'a' (first on line 1)"),
    ("", "no buffers"),
])
def test_bad_rows_one_line_nonzero_exit(tmp_path, capsys, text, needle):
    rc = main(["plan-memory", str(_write(tmp_path, text))])
    cap = capsys.readouterr()
    out = cap.err + cap.out                 # the one error line (npu-sim prints errors on stderr)
    assert rc == 2
    assert needle in out and len(out.strip().splitlines()) == 1, out


def test_missing_file(tmp_path, capsys):
    assert main(["plan-memory", str(tmp_path / "none.csv")]) == 2
    cap = capsys.readouterr()
    assert "cannot read" in cap.err + cap.out
