"""A second hostile-input pass (issue 16's closing note): bad inputs a new user might
try that the first sweep (``test_hostile_sweep.py``) does not, across the ``npu-sim``
and ``npu-trace`` CLIs, environment variables, the binding and the Pythonic layer.

Found and fixed by this pass: ``npu-trace export T --csv T`` overwrote the input
trace; ``--width -3`` was accepted; ``NPU_SIM_BLAS_THREADS=abc`` raised a traceback
at the first device and ``=-2`` was ignored silently; ``NPU_SIM_SANITIZE=yes`` was
ignored silently (only "1" counted). An empty ``--inputs``/``--save-outputs``/``info``
argument means "none", as ``--trace ''`` does.

Handled cleanly, as there: a CLI refuses with exit 1 or 2, a message on stderr and no
traceback (or, for an input that is legal, exit 0 and no traceback); the binding
returns a non-zero status with a recent-error message and never raises; the Pythonic
layer raises only ``AclRuntimeError`` subclasses. ``test_fresh_count`` keeps at least
100 cases.

(Over 300 lines on purpose: one table of cases per surface, counted together.)
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from .conftest import assert_binding_refuses, assert_pythonic_refuses, call_main, relu_model
from .test_hostile_sweep import _chip, _file, _npz

ROOT = Path(__file__).resolve().parents[2]
Q = ("--chip", "tiny", "--no-progress", "--trace", "")


def _model(d, name, nodes, inputs, outputs, inits=(), opset=17) -> str:
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    p = d / name
    onnx.save(m, str(p))
    return str(p)


def _vi(name, elem=TensorProto.FLOAT, shape=(2, 3)):
    return helper.make_tensor_value_info(name, elem, list(shape) if shape is not None else None)


def _truncated(d, m) -> str:
    data = Path(m).read_bytes()
    return _file(d, "half.onnx", data[: len(data) // 2])


def _truncated_npz(d) -> str:
    p = _npz(d, x=np.ones((2, 3), np.float32))
    data = Path(p).read_bytes()
    return _file(d, "cut.npz", data[: len(data) // 2])


def _yaml(d, text: str) -> str:
    return _file(d, f"c{len(list(d.glob('c*.yaml')))}.yaml", text.encode())


# ------------------------------------------------------------------ npu-sim: refused ("err") or run ("ok")
def _sim_cases():
    c = [
        ("mode-bogus", "err", lambda d, m: ["run", m, *Q, "--mode", "turbo"]),
        ("memory-bogus", "err", lambda d, m: ["run", m, *Q, "--memory", "lots"]),
        ("trace-level-bogus", "err", lambda d, m: ["run", m, *Q, "--trace-level", "all"]),
        ("disable-pass-unknown", "err", lambda d, m: ["run", m, *Q, "--disable-pass", "nonesuch"]),
        ("disable-pass-empty", "err", lambda d, m: ["run", m, *Q, "--disable-pass", ""]),
        ("seed-float", "err", lambda d, m: ["run", m, *Q, "--seed", "1.5"]),
        ("seed-huge", "ok", lambda d, m: ["run", m, *Q, "--seed", str(10 ** 30)]),
        ("top-negative", "err", lambda d, m: ["run", m, *Q, "--top", "-5"]),
        ("top-huge", "ok", lambda d, m: ["run", m, *Q, "--top", "1000000000"]),
        ("tol-empty", "err", lambda d, m: ["run", m, *Q, "--tol", ""]),
        ("inputs-empty-path", "ok", lambda d, m: ["run", m, *Q, "--inputs", ""]),
        ("inputs-no-arrays", "ok", lambda d, m: ["run", m, *Q, "--inputs", _npz(d)]),
        ("inputs-float64", "ok", lambda d, m: ["run", m, *Q, "--inputs", _npz(d, x=np.ones((2, 3)))]),
        ("inputs-int32-for-float", "ok", lambda d, m: ["run", m, *Q, "--inputs",
                                                       _npz(d, x=np.ones((2, 3), np.int32))]),
        ("inputs-bool", "ok", lambda d, m: ["run", m, *Q, "--inputs", _npz(d, x=np.ones((2, 3), bool))]),
        ("inputs-scalar", "err", lambda d, m: ["run", m, *Q, "--inputs", _npz(d, x=np.float32(1))]),
        ("inputs-extra-dim", "err", lambda d, m: ["run", m, *Q, "--inputs", _npz(d, x=np.ones((2, 3, 1), np.float32))]),
        ("inputs-zero-size", "err", lambda d, m: ["run", m, *Q, "--inputs", _npz(d, x=np.ones((0, 3), np.float32))]),
        ("inputs-truncated-npz", "err", lambda d, m: ["run", m, *Q, "--inputs", _truncated_npz(d)]),
        ("inputs-gzip", "err", lambda d, m: ["run", m, *Q, "--inputs", _file(d, "g.npz", gzip.compress(b"x"))]),
        ("inputs-is-model", "err", lambda d, m: ["run", m, *Q, "--inputs", m]),
        ("chip-zero-clock", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, clock_hz=0)]),
        ("chip-zero-hbm", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, hbm_bytes=0)]),
        ("chip-no-cores", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, aic_count=0, aiv_count=0)]),
        ("chip-count-string", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, aic_count="two")]),
        ("chip-unknown-field", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, warp_drive=9)]),
        ("chip-huge-number", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, clock_hz=1e400)]),
        ("chip-binary-junk", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _file(d, "b.yaml", bytes(range(256)))]),
        ("chip-is-dir", "err", lambda d, m: ["run", m, *Q[2:], "--chip", str(d)]),
        ("chip-is-model", "err", lambda d, m: ["run", m, *Q[2:], "--chip", m]),
        ("chip-yaml-scalar", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _yaml(d, "42\n")]),
        ("chip-yaml-empty", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _yaml(d, "")]),
        ("chip-json-list", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _file(d, "l.json", b"[1]")]),
        ("chip-architecture-bogus", "err", lambda d, m: ["run", m, *Q[2:], "--chip", _chip(d, architecture="x")]),
        ("model-truncated", "err", lambda d, m: ["run", _truncated(d, m), *Q]),
        ("model-gzip", "err", lambda d, m: ["run", _file(d, "z.onnx", gzip.compress(Path(m).read_bytes())), *Q]),
        ("model-no-nodes", "ok", lambda d, m: ["run", _model(d, "id.onnx", [], [_vi("x")], [_vi("x")]), *Q]),
        ("model-unsupported-op", "err", lambda d, m: ["run", _model(
            d, "det.onnx", [helper.make_node("Det", ["x"], ["y"])], [_vi("x", shape=(3, 3))], [_vi("y", shape=())]),
            *Q]),
        ("model-opset-99", "ok", lambda d, m: ["run", _model(
            d, "o99.onnx", [helper.make_node("Relu", ["x"], ["y"])], [_vi("x")], [_vi("y")], opset=99), *Q]),
        ("model-string-input", "err", lambda d, m: ["run", _model(
            d, "s.onnx", [helper.make_node("Identity", ["x"], ["y"])], [_vi("x", TensorProto.STRING)],
            [_vi("y", TensorProto.STRING)]), *Q]),
        ("model-zero-dim", "ok", lambda d, m: ["run", relu_model(d / "z0.onnx", shape=(0, 3)), *Q]),
        ("model-undefined-input", "err", lambda d, m: ["run", _model(
            d, "u.onnx", [helper.make_node("Relu", ["nowhere"], ["y"])], [_vi("x")], [_vi("y")]), *Q]),
        ("model-external-data-missing", "err", lambda d, m: ["run", _external(d), *Q]),
        ("model-tall-input", "err", lambda d, m: ["run", relu_model(d / "tall.onnx", shape=(10 ** 12, 1)), *Q]),
        ("weights-exceed-hbm", "err", lambda d, m: ["run", _gather_model(d, 1 << 19), *Q[2:],
                                                    "--chip", _chip(d, hbm_bytes=1 << 20)]),
        ("info-dir", "err", lambda d, m: ["info", str(d)]),
        ("info-empty", "ok", lambda d, m: ["info", ""]),
        ("chips-extra-arg", "err", lambda d, m: ["chips", "extra"]),
        ("reweight-seed-junk", "err", lambda d, m: ["reweight", m, str(d / "o.onnx"), "--seed", "abc"]),
        ("reweight-missing-dir", "err", lambda d, m: ["reweight", m, str(d / "no" / "o.onnx")]),
        ("sweep-missing", "err", lambda d, m: ["sweep", str(d / "no.yaml")]),
        ("sweep-junk", "err", lambda d, m: ["sweep", _yaml(d, "a: [1,")]),
        ("sweep-list", "err", lambda d, m: ["sweep", _yaml(d, "- 1\n")]),
        ("calibrate-missing", "err", lambda d, m: ["calibrate", str(d / "no.csv")]),
        ("calibrate-junk", "err", lambda d, m: ["calibrate", _file(d, "j.csv", b"\x00\x01garbage")]),
        ("plan-memory-missing", "err", lambda d, m: ["plan-memory", str(d / "no.csv")]),
        ("plan-memory-junk", "err", lambda d, m: ["plan-memory", _file(d, "p.csv", b"a,b\n1,x\n")]),
        ("save-outputs-empty", "ok", lambda d, m: ["run", m, *Q, "--save-outputs", ""]),
    ]
    return c


def _gather_model(d, n: int) -> str:
    """y = Gather(w, x): a weight of ``n`` float32 that no fold removes (the index is an input)."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [n], np.ones(n, np.float32).tobytes(), raw=True)
    return _model(d, "gather.onnx", [helper.make_node("Gather", ["w", "x"], ["y"])],
                  [_vi("x", TensorProto.INT64, (1,))], [_vi("y", shape=(1,))], [w])


def _external(d) -> str:
    w = helper.make_tensor("w", TensorProto.FLOAT, [2, 3], np.ones(6, np.float32).tobytes(), raw=True)
    p = _model(d, "ext.onnx", [helper.make_node("Add", ["x", "w"], ["y"])], [_vi("x")], [_vi("y")], [w])
    m = onnx.load(p)
    onnx.save(m, p, save_as_external_data=True, all_tensors_to_one_file=True, location="w.bin",
              size_threshold=0)
    (d / "w.bin").unlink()
    return p


SIM = _sim_cases()


@pytest.mark.parametrize("case", SIM, ids=[c[0] for c in SIM])
def test_fresh_npu_sim(case, tmp_path, capsys):
    from frontend.cli import main
    name, want, argv = case
    model = str(relu_model(tmp_path / "m.onnx"))
    try:
        code = main([str(a) for a in argv(tmp_path, model)])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, (name, out, err)
    if want == "ok":
        assert code == 0, (name, code, out, err)
    else:
        assert code in (1, 2) and err.strip(), (name, code, out, err)


# ------------------------------------------------------------------ npu-trace
def _trace_cases():
    good = {"traceEvents": [{"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]}

    def ok(d):
        return _file(d, "ok.json", json.dumps(good).encode())

    def ev(d, name, *events):
        return _file(d, name, json.dumps({"traceEvents": list(events)}).encode())

    return [
        ("view-missing", lambda d: ["view", str(d / "no.json")]),
        ("diff-one-missing", lambda d: ["diff", ok(d), str(d / "no.json")]),
        ("diff-junk", lambda d: ["diff", ok(d), _file(d, "j.json", b"junk")]),
        ("export-nothing", lambda d: ["export", ok(d)]),
        ("export-csv-proc", lambda d: ["export", ok(d), "--csv", "/proc/x.csv"]),
        ("export-html-missing-dir", lambda d: ["export", ok(d), "--html", str(d / "no" / "x.html")]),
        ("export-png-proc", lambda d: ["export", ok(d), "--png", "/proc/x.png"]),
        ("export-onto-input", lambda d: ["export", ok(d), "--csv", str(d / "ok.json")]),
        ("window-junk", lambda d: ["summary", ok(d), "--window", "abc"]),
        ("window-reversed", lambda d: ["summary", ok(d), "--window", "5ms:1ms"]),
        ("window-unit-bogus", lambda d: ["summary", ok(d), "--window", "1parsec:2parsec"]),
        ("top-negative", lambda d: ["summary", ok(d), "--top", "-1"]),
        ("by-bogus", lambda d: ["summary", ok(d), "--by", "planet"]),
        ("view-window-junk", lambda d: ["view", ok(d), "--window", "x:y"]),
        ("view-tracks-bogus", lambda d: ["view", ok(d), "--tracks", "rails"]),
        ("validate-binary", lambda d: ["validate", _file(d, "bin.json", bytes(range(256)))]),
        ("ts-strings", lambda d: ["summary", ev(d, "ts.json", {"ph": "X", "name": "k", "pid": 1, "tid": 1,
                                                               "ts": "zero", "dur": "one"})]),
        ("empty-gzip", lambda d: ["summary", _file(d, "e.json.gz", gzip.compress(b""))]),
        ("events-not-list", lambda d: ["summary", _file(d, "nl.json", b'{"traceEvents": {"a": 1}}')]),
        ("diff-no-spans", lambda d: ["diff", ev(d, "a.json"), ev(d, "b.json")]),
        ("device-unknown", lambda d: ["summary", ok(d), "--device", "device 9"]),
        ("timeline-bad-width", lambda d: ["timeline", ok(d), "--width", "-3"]),
    ]


TRACE = _trace_cases()


@pytest.mark.parametrize("case", TRACE, ids=[c[0] for c in TRACE])
def test_fresh_npu_trace(case, tmp_path, capsys):
    from traces.cli import main
    name, argv = case
    code, out, err = call_main(main, argv(tmp_path), capsys)
    assert "Traceback" not in out + err, (name, out, err)
    assert code in (1, 2) and err.strip(), (name, code, out, err)
    if (tmp_path / "ok.json").exists():   # the input trace is never overwritten
        assert json.loads((tmp_path / "ok.json").read_text())["traceEvents"][0]["name"] == "k"


# ------------------------------------------------------------------ environment variables
#: (variable, value, a warning line expected); "yes" turns the sanitizer on, a huge pool size is legal
ENV = [("NPU_SIM_BLAS_THREADS", "abc", True), ("NPU_SIM_BLAS_THREADS", "-2", True),
       ("NPU_SIM_BLAS_THREADS", "100000", True),
       ("NPU_SIM_SANITIZE", "maybe", True), ("NPU_SIM_SANITIZE", "yes", False),
       ("NPU_SIM_EXECUTOR_CACHE_SIZE", "1e3", True), ("NPU_SIM_EXECUTOR_POOL_SIZE", "9" * 40, False),
       ("NPU_SIM_EXECUTOR_CACHE", "", False)]


@pytest.mark.parametrize("var,value,warns", ENV, ids=[f"{v}={x}" for v, x, _ in ENV])
def test_fresh_environment(var, value, warns):
    """One run with a tiny launch: it works, and a value that is set but wrong gets one
    warning line naming the variable (an empty value means unset)."""
    code = ("from acl_runtime import Session; import numpy as np; import opsnn\n"
            "with Session('tiny') as s:\n"
            "    x = s.to_device(np.ones(8, np.float32)); y = s.empty((8,), np.float32)\n"
            "    opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y); print('ok')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env=dict(os.environ, **{var: value}))
    assert p.returncode == 0 and p.stdout.strip() == "ok" and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    if warns:
        assert len(lines) == 1 and var in lines[0] and repr(value) in lines[0], p.stderr
    else:
        assert lines == [], p.stderr


# ------------------------------------------------------------------ the binding
def _binding_cases():
    import opsnn
    from acl_runtime import acl
    from opsnn.base.dtypes import from_numpy_dtype
    f32 = from_numpy_dtype(np.dtype(np.float32))

    def t(shape=(8,)):
        ptr, _ = acl.rt.malloc(4 * int(np.prod(shape)) or 4, 0)
        return opsnn.aclCreateTensor(shape, f32, None, 0, 2, shape, ptr)

    def relu_ws(x, y):
        return opsnn.aclnnReluGetWorkspaceSize(x, y)

    return [
        ("tensor-none-shape", lambda: opsnn.aclCreateTensor(None, f32, None, 0, 2, None, 0)),
        ("tensor-negative-dim", lambda: opsnn.aclCreateTensor((2, -1), f32, None, 0, 2, (2, -1), 0)),
        ("tensor-huge-dim", lambda: opsnn.aclCreateTensor((2 ** 62, 4), f32, None, 0, 2, (2 ** 62, 4), 0)),
        ("tensor-bad-dtype", lambda: opsnn.aclCreateTensor((2,), 999, None, 0, 2, (2,), 0)),
        ("tensor-str-shape", lambda: opsnn.aclCreateTensor("ab", f32, None, 0, 2, "ab", 0)),
        ("tensor-bad-format", lambda: opsnn.aclCreateTensor((2,), f32, None, 0, 77, (2,), 0)),
        ("tensor-negative-offset", lambda: opsnn.aclCreateTensor((2,), f32, None, -4, 2, (2,), 0)),
        ("tensor-bad-strides", lambda: opsnn.aclCreateTensor((2, 2), f32, (1,), 0, 2, (2, 2), 0)),
        ("scalar-none", lambda: opsnn.aclCreateScalar(None, f32)),
        ("scalar-bad-dtype", lambda: opsnn.aclCreateScalar(1.0, 999)),
        ("intarray-none", lambda: opsnn.aclCreateIntArray(None)),
        ("intarray-strings", lambda: opsnn.aclCreateIntArray(["a", "b"])),
        ("destroy-tensor-none", lambda: opsnn.aclDestroyTensor(None)),
        ("destroy-tensor-junk", lambda: opsnn.aclDestroyTensor("tensor")),
        ("destroy-executor-none", lambda: opsnn.aclDestroyAclOpExecutor(None)),
        ("relu-ws-none", lambda: relu_ws(None, None)),
        ("relu-ws-str", lambda: relu_ws("x", "y")),
        ("relu-ws-shape-mismatch", lambda: relu_ws(t((8,)), t((4,)))),
        ("add-ws-scalar-for-tensor", lambda: opsnn.aclnnAddGetWorkspaceSize(
            opsnn.aclCreateScalar(1.0, f32), t(), 1.0, t())),
        ("softmax-dim-out-of-range", lambda: opsnn.aclnnSoftmaxGetWorkspaceSize(t(), 5, t())),
        ("softmax-dim-str", lambda: opsnn.aclnnSoftmaxGetWorkspaceSize(t(), "x", t())),
        ("relu-exec-none", lambda: opsnn.aclnnRelu(0, 0, None, 0)),
        ("relu-exec-str", lambda: opsnn.aclnnRelu(0, 0, "exec", 0)),
        ("relu-exec-int", lambda: opsnn.aclnnRelu(0, 0, 12345, 0)),
        ("relu-run-twice", lambda: _twice(relu_ws)),
        ("relu-bad-stream", lambda: (lambda r: opsnn.aclnnRelu(0, r[0], r[1], 4242))(relu_ws(t(), t()))),
        ("relu-ws-too-small", lambda: _ws_short()),
        ("memcpy-none", lambda: acl.rt.memcpy(None, 8, None, 8, 1)),
        ("memcpy-negative-count", lambda: acl.rt.memcpy(acl.rt.malloc(64, 0)[0], 64,
                                                        acl.util.numpy_to_ptr(np.zeros(16, np.float32)), -8, 1)),
        ("create-event-flag-junk", lambda: acl.rt.create_event_with_flag("x")),
        ("query-event-junk", lambda: acl.rt.query_event_status(999)),
        ("event-timestamp-junk", lambda: acl.rt.event_get_timestamp(999)),
        ("reset-event-junk", lambda: acl.rt.reset_event(999, 0)),
        ("malloc-host-huge", lambda: acl.rt.malloc_host(2 ** 62)),
    ]


def _twice(relu_ws):
    import opsnn
    from acl_runtime import acl
    from opsnn.base.dtypes import from_numpy_dtype
    f32 = from_numpy_dtype(np.dtype(np.float32))
    ptrs = [acl.rt.malloc(32, 0)[0] for _ in range(2)]
    x, y = (opsnn.aclCreateTensor((8,), f32, None, 0, 2, (8,), p) for p in ptrs)
    ws, ex, ret = relu_ws(x, y)
    assert ret == 0 and opsnn.aclnnRelu(0, ws, ex, 0) == 0
    return opsnn.aclnnRelu(0, ws, ex, 0)      # a non-repeatable executor runs once


def _ws_short():
    import opsnn
    from acl_runtime import acl
    from opsnn.base.dtypes import from_numpy_dtype
    f32 = from_numpy_dtype(np.dtype(np.float32))
    shape = (64, 64)
    ptrs = [acl.rt.malloc(4 * 64 * 64, 0)[0] for _ in range(3)]
    a, b, c = (opsnn.aclCreateTensor(shape, f32, None, 0, 2, shape, p) for p in ptrs)
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, b, c, 0)
    if not ws:
        return opsnn.aclnnMatmul(0, 0, None, 0)
    return opsnn.aclnnMatmul(0, ws - 1, ex, 0)


BINDING = _binding_cases()


@pytest.mark.parametrize("case", BINDING, ids=[c[0] for c in BINDING])
def test_fresh_binding(case, npu):
    from acl_runtime import acl
    name, call = case
    ret = call()
    if ret is None:             # aclCreate* return None on failure, as CANN returns nullptr
        assert acl.get_recent_err_msg(), name
        return
    assert_binding_refuses(name, ret)


# ------------------------------------------------------------------ the Pythonic layer
def _pythonic_cases():
    import opsnn
    from acl_runtime import Session
    return [
        ("empty-none-shape", lambda s: s.empty(None, np.float32)),
        ("empty-none-dtype", lambda s: s.empty((2,), None)),
        ("empty-complex", lambda s: s.empty((2,), np.complex128)),
        ("empty-str-shape", lambda s: s.empty("22", np.float32)),
        ("to-device-none", lambda s: s.to_device(None)),
        ("to-device-complex", lambda s: s.to_device(np.ones(4, np.complex64))),
        ("memcpy-none", lambda s: s.memcpy(None, None)),
        ("memcpy-nbytes-too-big", lambda s: s.memcpy(s.empty((2,), np.float32), np.ones(2, np.float32),
                                                     nbytes=1 << 20)),
        ("memcpy-nbytes-negative", lambda s: s.memcpy(s.empty((2,), np.float32), np.ones(2, np.float32),
                                                      nbytes=-4)),
        ("workspace-negative", lambda s: s.workspace(-1)),
        ("workspace-huge", lambda s: s.workspace(2 ** 60)),
        ("write-trace-proc", lambda s: s.write_trace("/proc/x.json")),
        ("write-trace-dir", lambda s: s.write_trace(str(Path("/tmp")))),
        ("session-chip-int", lambda s: Session(42).open()),
        ("run-op-list-for-tensor", lambda s: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu,
                                                          [1.0, 2.0], s.empty((2,), np.float32))),
        ("run-op-none-tensor", lambda s: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu,
                                                      None, s.empty((2,), np.float32))),
        ("numpy-twice-freed", lambda s: (lambda a: (a.free(), a.free()))(s.empty((4,), np.float32))),
    ]


PYTHONIC = _pythonic_cases()


@pytest.mark.parametrize("case", PYTHONIC, ids=[c[0] for c in PYTHONIC])
def test_fresh_pythonic(case):
    assert_pythonic_refuses(*case)


def test_fresh_count():
    assert len(SIM) + len(TRACE) + len(ENV) + len(BINDING) + len(PYTHONIC) >= 100
