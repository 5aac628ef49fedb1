"""The ``export --html`` page in headless Chromium (Debian's ``chromium`` package):
it loads from a file with no network, draws every track, zooms from the URL hash,
and its screenshot is what docs/npu_trace_html.png shows. Skipped, saying why, when
chromium is not installed (``apt-get install -y chromium``)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from traces.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--hide-scrollbars"]


def _status(url: str) -> dict[str, float]:
    out = subprocess.run([CHROMIUM, *FLAGS, "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    tag = re.search(r'<div id="status"([^>]*)>', out)
    assert tag, out[:500]
    return {k: float(v) for k, v in re.findall(r'data-(\w+)="([^"]*)"', tag.group(1))}


def test_html_page_draws_tracks_and_zooms(tmp_path, acl_run, capsys):
    page = tmp_path / "t.html"
    assert main(["export", str(acl_run.path), "--html", str(page)]) == 0
    capsys.readouterr()
    full = _status(page.as_uri())
    assert full["rows"] >= 5 and full["drawn"] >= 5           # host, 2 streams, cores
    zoomed = _status(page.as_uri() + "#zoom=4")
    assert zoomed["t1"] - zoomed["t0"] == pytest.approx((full["t1"] - full["t0"]) / 4, rel=1e-6)
    assert 0 < zoomed["drawn"] <= full["drawn"]
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, "--window-size=1400,900", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=120)
    assert shot.read_bytes()[:4] == b"\x89PNG"
