"""The README's claims that can drift: its node-test table and its two commands."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_node_table_matches_docs():
    """Every op's passed/total in the README equals docs/onnx_node_tests.md (which
    tests/frontend/test_node_cases.py checks against a fresh run)."""
    doc = (ROOT / "docs" / "onnx_node_tests.md").read_text()
    rows = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) \|", doc, re.M)
    readme = (ROOT / "README.md").read_text()
    table = readme.split("<!-- node-test-table -->")[1].split("<!-- /node-test-table -->")[0]
    cells = set(re.findall(r"(\w+) (\d+)/(\d+)", table))
    assert rows and cells == set(rows)
    total = re.search(r"\*\*(\d+) / (\d+) cases pass", doc).groups()
    assert f"**{total[0]} / {total[1]} cases pass.**" in readme


def test_ci_runs_the_readme_test_command():
    """.ci/run runs exactly the README's test command."""
    readme = (ROOT / "README.md").read_text()
    cmd = next(line for line in readme.splitlines() if "python -m pytest" in line and "pip install" in line)
    assert cmd.strip() in (ROOT / ".ci" / "run").read_text()


def test_readme_python_examples_run(tmp_path, monkeypatch):
    """Every ```python block of the README runs as written (the binding, the Session
    and the generated op functions), in a fresh namespace, on the tiny chip."""
    import numpy as np
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)   # anything a block writes stays in tmp
    for i, code in enumerate(blocks):
        np.random.seed(i)
        ns: dict = {"__name__": f"readme_block_{i}"}
        exec(compile(code, f"README.md python block {i}", "exec"), ns)  # noqa: S102 - our own README
        if {"a", "b", "c"} <= ns.keys() and isinstance(ns["c"], np.ndarray):   # the binding's matmul
            np.testing.assert_allclose(ns["c"], ns["a"].astype(np.float64) @ ns["b"], rtol=1e-5)
        if "p" in ns and "img" in ns:                                         # the per-family functions
            assert ns["p"].shape == (1, 4, 4, 4) and ns["t"].shape == (32, 4) and ns["r"].shape == (4, 1)
            np.testing.assert_allclose(ns["rs"].ravel(), ns["zs"].astype(np.float64).sum(1), rtol=1e-5)
