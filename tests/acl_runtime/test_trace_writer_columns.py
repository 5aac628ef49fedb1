"""The column-wise "X" event build of ``acl_runtime.trace_writer`` writes the bytes of
the straightforward reference writer (``traces.chrome_trace.write_chrome_trace``:
one dict per event, ``json_safe``, ``json.dump``):

* on a real run at trace level "pipes" -- a small ResNet-style model in graph mode
  (one capture, replayed) and eager, with host calls, stream tasks, flows from host
  launches to device tasks, per-tile pipe spans and the memory and L2 counters;
* on pipe entries the columns must not merge: 0.0 against -0.0 durations, zero
  and nonzero byte counts, a numpy or bool tile, ints beyond 64 bits; with str and
  bool flow ids and counters of every value kind (int, float, -0.0, NaN, inf, bool,
  numpy scalars, None, big ints) at unsorted times;
* the ``_plain`` shortcut (args encoded without ``json_safe``) gives the text
  ``json_safe`` would, on random args.
"""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.runtime import runtime
from acl_runtime.trace_writer import _DUMPS, _plain, write_trace_fast
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from tests.frontend.test_memory import clean_acl  # noqa: F401  (fixture)
from tests.frontend.test_replay_resnet import HW, _resnet
from traces.chrome_trace import json_safe, write_chrome_trace


def _same_bytes(tmp_path, monkeypatch, metadata=None) -> bytes:
    prof = runtime().profiler
    ref = write_chrome_trace(prof, tmp_path / "ref.json", metadata=metadata).read_bytes()
    import traces.chrome_trace as ct   # the fast path must not fall back to the reference build
    monkeypatch.setattr(ct, "to_chrome_trace", lambda *a, **k: pytest.fail("fell back"))
    fast = write_trace_fast(prof, tmp_path / "fast.json", metadata=metadata).read_bytes()
    assert fast == ref
    return ref


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_model_run_trace_is_byte_identical(tmp_path, monkeypatch, mode, clean_acl):  # noqa: F811
    path = _resnet(tmp_path)
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    runtime().profiler.set_level("pipes")
    r = ModelRunner(load_onnx(path), mode=mode, memory="planned" if mode == "graph" else "naive")
    r.prepare()
    if mode == "graph":
        r.program.capture()
    x = np.random.default_rng(3).standard_normal((1, 3, 2 * HW, 2 * HW)).astype(np.float32)
    r.run({"x": x})
    r.run({"x": x})
    text = _same_bytes(tmp_path, monkeypatch, metadata={"model": "tiny_resnet"}).decode()
    assert text.count('"cat":"pipe"') > 100 and '"ph":"s"' in text and '"ph":"f"' in text
    assert '"ph":"C"' in text and '"bytes":' in text


def test_pipe_entries_that_must_not_merge(tmp_path, monkeypatch, clean_acl):  # noqa: F811
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    rec = runtime().device.recorder
    track, other = ("device 0", "AIC0 MTE2"), ("device 0", "AIC0 MTE3")
    sink = rec.pipe_sink()
    sink((track, "load", 0.0, 0.0, 0, 0))
    sink((track, "load", 1.0, -0.0, 0, 0))
    sink((track, "load", 2.0, 1.5, 1, 512))
    sink((other, "load", 2.0, 1.5, 1, 512))
    sink((track, "load", 4.0, 1.5, 1, 0))
    rec.pack()
    sink((track, "load", 6.0, 1e-7, 2, 10 ** 20))   # (not packed: SpanColumns keeps 64-bit ints)
    sink((other, "store", 8.0, 1.0, np.int64(3), 64))
    sink((other, "store", 9.0, 1.0, True, 0))
    rec.span(("device 0", "stream 1"), "task", 0.5, 20.0, "task", {"n": (1, 2), "s": "x"})
    rec.span(("device 0", "stream 1"), "task", 21.0, 2.0, "task", flow_id="f1")
    rec.span(("device 0", "stream 2"), "task", 21.0, 2.0, "task", flow_id=True)
    host = runtime().profiler.host
    host.span(("host", "thread 0"), "launch", 0.0, 1.0, "host", flow_id="f1", flow_out=True)
    host.span(("host", "thread 0"), "launch", 1.0, 1.0, "host", flow_id=True, flow_out=True)
    for k, v in enumerate([3, 2.5, -0.0, float("nan"), float("-inf"), True, np.int32(4), np.float64(0.1), None, 10 ** 30]):
        rec.counter("device 0", f"c{k % 3}", float(10 - k), v)
    rec.counter("dram", "bw", 3.0, 1.0)
    _same_bytes(tmp_path, monkeypatch)


def _random_value(rng, depth=0):
    pick = int(rng.integers(0, 11 if depth < 2 else 7))
    return [lambda: None, lambda: bool(rng.integers(2)), lambda: int(rng.integers(-9, 9)),
            lambda: float(rng.standard_normal()), lambda: "s%d" % rng.integers(9),
            lambda: float(rng.choice([np.inf, -np.inf, np.nan, -0.0])), lambda: np.float32(0.25),
            lambda: {f"k{j}": _random_value(rng, depth + 1) for j in range(int(rng.integers(0, 3)))},
            lambda: [_random_value(rng, depth + 1) for _ in range(int(rng.integers(0, 3)))],
            lambda: tuple(_random_value(rng, depth + 1) for _ in range(int(rng.integers(0, 3)))),
            lambda: {int(rng.integers(3)): 1.0}][pick]()


@pytest.mark.parametrize("seed", range(30))
def test_plain_args_encode_as_json_safe_does(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        a = {f"a{j}": _random_value(rng) for j in range(int(rng.integers(0, 5)))}
        if _plain(a):
            assert _DUMPS(a) == _DUMPS(json_safe(a))
