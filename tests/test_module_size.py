"""No module over about 300 lines without a reason written at its top (issue 8): a
Python file of the project longer than LIMIT lines says why in its first lines, in
the form "(Over 300 lines on purpose: ...)" or "over 300 lines ... because/: ..."."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("npu_sim", "acl_runtime", "opsnn", "frontend", "traces", "benchmarks", "tests")
LIMIT = 320            # "about 300"
HEAD_CHARS = 4000      # where the reason must stand (the module docstring)
REASON = re.compile(r"(over|more than|longer than)\s+300\s+lines", re.I)


def long_modules_without_reason() -> list[str]:
    bad = []
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            text = f.read_text(encoding="utf-8")
            if text.count("\n") > LIMIT and not REASON.search(text[:HEAD_CHARS]):
                bad.append(f"{f.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    return bad


def test_long_modules_say_why():
    bad = long_modules_without_reason()
    assert not bad, ("modules over ~300 lines without a reason at their top (write '(Over 300 lines on purpose: "
                     "...)' in the module docstring, or split them):\n  " + "\n  ".join(bad))
