"""The trace writer pauses the cyclic garbage collector while it builds the text
(``npu_sim.host_gc.gc_paused``, used by acl_runtime.trace_writer) and leaves it as it found it: enabled again
after a build, after a build that raised, and still disabled when the caller had
disabled it; the text is the reference writer's either way."""
from __future__ import annotations

import gc
import json

import pytest

from acl_runtime import trace_writer
from traces.chrome_trace import to_chrome_trace
from traces.records import Span


class _Source:
    def __init__(self, spans):
        self.spans = spans

    def trace_records(self):
        return self.spans, [], {}


def _spans(overlap=False):
    t = ("device", "core0.cube")
    return [Span(t, "mmad", 0.0, 10.0, "pipe", {"tile": 0}), Span(t, "mmad", 5.0 if overlap else 10.0, 3.0, "pipe")]


@pytest.mark.parametrize("was_enabled", [True, False])
def test_collector_state_restored_and_text_unchanged(was_enabled):
    seen = []
    real = trace_writer._fast_text

    def spy(source, metadata):
        seen.append(gc.isenabled())
        return real(source, metadata)
    try:
        (gc.enable if was_enabled else gc.disable)()
        trace_writer._fast_text = spy
        text = trace_writer.chrome_trace_text(_Source(_spans()))
        assert seen == [False] and gc.isenabled() == was_enabled
        want = json.dumps(to_chrome_trace(_Source(_spans())), allow_nan=False, separators=(",", ":"))
        assert text == want
        with pytest.raises(ValueError):            # overlapping spans: the reference error
            trace_writer.chrome_trace_text(_Source(_spans(overlap=True)))
        assert gc.isenabled() == was_enabled
    finally:
        trace_writer._fast_text = real
        gc.enable()
