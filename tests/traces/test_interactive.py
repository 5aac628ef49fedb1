"""``npu-trace view --interactive`` (textual): keys pan, zoom, select a span and walk
the critical path. Driven headless with textual's ``App.run_test`` pilot."""
from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from traces.interactive import TraceApp  # noqa: E402
from traces.load import from_chrome_trace, read_trace_file  # noqa: E402


def test_keys_pan_zoom_select_and_critical_path(acl_run):
    data = from_chrome_trace(read_trace_file(acl_run.path))

    async def go():
        app = TraceApp(data)
        async with app.run_test(size=(140, 30)) as pilot:
            full = app.hi - app.lo
            await pilot.press("plus")
            assert app.hi - app.lo == pytest.approx(full / 2)
            lo = app.lo
            await pilot.press("right")
            assert app.lo == pytest.approx(lo + full / 2 * 0.2)
            await pilot.press("c")
            seg = app.path[0]
            assert app.lo <= seg["start_ns"] and seg["end_ns"] <= app.hi and "critical path 1/" in app.info
            row = next(i for i, r in enumerate(app.rows) if r.label == "host / thread 0")
            app.row = row
            await pilot.press("enter")
            assert seg["name"] in app.info or "no span" in app.info
            app.row = next(i for i, r in enumerate(app.rows) if r.label.endswith("stream 1"))
            first = app.spans[app.rows[app.row].label][0]
            app.cursor = first.start_ns + first.dur_ns / 2
            await pilot.press("enter")
            assert app.info.startswith(first.name) and "args" in app.info
            await pilot.press("r")
            assert (app.lo, app.hi) == (app.t0, app.t1)
            await pilot.press("q")

    asyncio.run(go())
