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
