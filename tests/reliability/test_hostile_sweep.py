"""The hostile-input sweep: bad inputs a new user might try, across the ``npu-sim``
CLI, ``npu-trace``, the pyACL-style binding and the Pythonic layer.

Handled cleanly means:

* CLI (both tools): exit code 1 or 2, an error on stderr, no traceback;
* binding: a non-zero status returned (never raised) and a recent-error message;
* Pythonic layer: only typed exceptions (``AclRuntimeError``, which ``OpError``
  subclasses), each with a readable message.

``test_sweep_count`` asserts the sweep keeps at least 100 cases.

(Over 300 lines on purpose: the sweep is one table of cases per surface, kept
together so its count is the closing note's.)
"""
from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from .conftest import assert_binding_refuses, assert_pythonic_refuses, call_main, relu_model

# ---------------------------------------------------------------------------- npu-sim CLI
T = ("--chip", "tiny", "--no-progress", "--trace", "")


def _cli_cases():
    """(id, argv builder (tmp_path, relu path) -> argv)."""
    c = [
        ("model-missing", lambda d, m: ["run", "nope.onnx", *T]),
        ("model-dir", lambda d, m: ["run", str(d), *T]),
        ("model-empty-file", lambda d, m: ["run", _file(d, "e.onnx", b""), *T]),
        ("model-text-file", lambda d, m: ["run", _file(d, "t.onnx", b"hello"), *T]),
        ("model-json", lambda d, m: ["run", _file(d, "j.onnx", b"{}"), *T]),
        ("model-markup", lambda d, m: ["run", "x[/].onnx", *T]),
        ("model-markup2", lambda d, m: ["run", "[bold red]", *T]),
        ("model-unicode", lambda d, m: ["run", "模型.onnx", *T]),
        ("model-newline", lambda d, m: ["run", "a\nb.onnx", *T]),
        ("chip-unknown", lambda d, m: ["run", m, "--chip", "nonesuch", "--no-progress", "--trace", ""]),
        ("chip-markup", lambda d, m: ["run", m, "--chip", "[/]", "--no-progress", "--trace", ""]),
        ("chip-empty", lambda d, m: ["run", m, "--chip", "", "--no-progress", "--trace", ""]),
        ("chip-missing-yaml", lambda d, m: ["run", m, "--chip", str(d / "no.yaml"), "--no-progress", "--trace", ""]),
        ("chip-bad-yaml", lambda d, m: ["run", m, "--chip", _file(d, "c.yaml", b"a: [1, 2"), "--no-progress",
                                        "--trace", ""]),
        ("chip-yaml-list", lambda d, m: ["run", m, "--chip", _file(d, "l.yaml", b"- 1\n- 2\n"), "--no-progress",
                                         "--trace", ""]),
        ("chip-yaml-fields", lambda d, m: ["run", m, "--chip", _file(d, "f.yaml", b"name: x\naic_count: 2\n"),
                                           "--no-progress", "--trace", ""]),
        ("chip-json-junk", lambda d, m: ["run", m, "--chip", _file(d, "c.json", b"{not json"), "--no-progress",
                                         "--trace", ""]),
        ("chip-aiv5", lambda d, m: ["run", m, "--chip", _chip(d, aiv_count=5), "--no-progress", "--trace", ""]),
        ("chip-bool", lambda d, m: ["run", m, "--chip", _chip(d, aic_count=True), "--no-progress", "--trace", ""]),
        ("chip-coupled", lambda d, m: ["run", m, "--chip", _chip(d, architecture="coupled", aic_count=24,
                                                                 aiv_count=48), "--no-progress", "--trace", ""]),
        ("chip-negative-hbm", lambda d, m: ["run", m, "--chip", _chip(d, hbm_bytes=-1), "--no-progress",
                                            "--trace", ""]),
        ("chip-nan-clock", lambda d, m: ["run", m, "--chip", _chip(d, clock_hz=float("nan")), "--no-progress",
                                         "--trace", ""]),
        ("inputs-missing", lambda d, m: ["run", m, "--inputs", str(d / "no.npz"), *T]),
        ("inputs-npy", lambda d, m: ["run", m, "--inputs", _npy(d), *T]),
        ("inputs-text", lambda d, m: ["run", m, "--inputs", _file(d, "i.npz", b"junk"), *T]),
        ("inputs-dir", lambda d, m: ["run", m, "--inputs", str(d), *T]),
        ("inputs-unknown-name", lambda d, m: ["run", m, "--inputs", _npz(d, nope=np.zeros(6, np.float32)), *T]),
        ("inputs-wrong-shape", lambda d, m: ["run", m, "--inputs", _npz(d, x=np.zeros((3, 3), np.float32)), *T]),
        ("inputs-strings", lambda d, m: ["run", m, "--inputs", _npz(d, x=np.array([["a"] * 3] * 2)), *T]),
        ("inputs-complex", lambda d, m: ["run", m, "--inputs", _npz(d, x=np.zeros((2, 3), np.complex64)), *T]),
        ("inputs-nan", lambda d, m: ["run", m, "--inputs", _npz(d, x=np.full((2, 3), np.nan, np.float32)), *T]),
        ("inputs-inf", lambda d, m: ["run", m, "--inputs", _npz(d, x=np.full((2, 3), np.inf, np.float32)), *T]),
        ("inputs-object-pickle", lambda d, m: ["run", m, "--inputs", _pickled(d), *T]),
        ("trace-is-model", lambda d, m: ["run", m, "--chip", "tiny", "--no-progress", "--trace", m]),
        ("trace-dir", lambda d, m: ["run", m, "--chip", "tiny", "--no-progress", "--trace", str(d)]),
        ("trace-proc", lambda d, m: ["run", m, "--chip", "tiny", "--no-progress", "--trace", "/proc/x.json"]),
        ("trace-missing-dir", lambda d, m: ["run", m, "--chip", "tiny", "--no-progress", "--trace",
                                            str(d / "no" / "t.json")]),
        ("save-outputs-file", lambda d, m: ["run", m, *T, "--save-outputs", m]),
        ("save-outputs-proc", lambda d, m: ["run", m, *T, "--save-outputs", "/proc/outs"]),
        ("no-shape-input", lambda d, m: ["run", relu_model(d / "ns.onnx", declare_shape=False), *T]),
        ("huge-input", lambda d, m: ["run", relu_model(d / "huge.onnx", shape=(100000, 100000)), *T]),
        ("dynamic-input", lambda d, m: ["run", relu_model(d / "dyn.onnx", shape=("n", 3)), *T]),
        ("info-missing", lambda d, m: ["info", "nope.onnx"]),
        ("info-markup", lambda d, m: ["info", "a[/]b"]),
        ("info-text-file", lambda d, m: ["info", _file(d, "t2.onnx", b"hello")]),
        ("reweight-onto-input", lambda d, m: ["reweight", m, m]),
        ("reweight-proc", lambda d, m: ["reweight", m, "/proc/x.onnx"]),
        ("reweight-dir", lambda d, m: ["reweight", m, str(d)]),
        ("reweight-text-model", lambda d, m: ["reweight", _file(d, "t3.onnx", b"zz"), str(d / "o.onnx")]),
    ]
    for flag, val in [("--seed", "-1"), ("--seed", "abc"), ("--tol", "0"), ("--tol", "nan"), ("--tol", "-1"),
                      ("--tol", "inf"), ("--top", "0"), ("--top", "x"), ("--bogus", "1")]:
        c.append((f"flag{flag}={val}", lambda d, m, f=flag, v=val: ["run", m, *T, f, v]))
    c.append(("no-subcommand", lambda d, m: []))
    c.append(("unknown-subcommand", lambda d, m: ["frobnicate"]))
    return c


def _file(d, name, data: bytes) -> str:
    p = d / name
    p.write_bytes(data)
    return str(p)


def _npy(d) -> str:
    np.save(d / "plain.npy", np.ones((2, 3), np.float32))
    return str(d / "plain.npy")


def _npz(d, **arrays) -> str:
    p = d / f"in{len(list(d.glob('in*.npz')))}.npz"
    np.savez(p, **arrays)
    return str(p)


def _pickled(d) -> str:
    p = d / "pk.npz"
    np.savez(p, x=np.array([{"a": 1}], dtype=object))
    return str(p)


def _chip(d, **change) -> str:
    import yaml

    from npu_sim import get_chip
    cfg = get_chip("tiny").model_dump(mode="json")
    cfg.update(change)
    p = d / f"chip{len(list(d.glob('chip*.yaml')))}.yaml"
    p.write_text(yaml.safe_dump(cfg))
    return str(p)


CLI = _cli_cases()
#: cases that run the model to the end and fail the check (exit 1) rather than refuse up front
CHECK_FAILS = {"inputs-nan", "inputs-inf"}


@pytest.mark.parametrize("case", CLI, ids=[c[0] for c in CLI])
def test_npu_sim_cli(case, tmp_path, capsys):
    from frontend.cli import main
    name, argv = case
    m = str(relu_model(tmp_path / "relu.onnx"))
    try:
        code = main([str(a) for a in argv(tmp_path, m)])
    except SystemExit as e:   # argparse usage errors
        code = e.code
    out, err = capsys.readouterr()
    assert code in (1, 2), (name, code, out, err)
    assert "Traceback" not in out + err, (name, out, err)
    if name in CHECK_FAILS:   # ran to the end: the verdict is in the summary
        assert "not finite" in out and "PASS" not in out
    else:
        assert err.strip(), (name, out, err)
    assert "Warning" not in err


# ---------------------------------------------------------------------------- npu-trace CLI
def _trace_cases():
    good = {"traceEvents": [{"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]}
    return [
        ("missing", lambda d: ["summary", str(d / "no.json")]),
        ("dir", lambda d: ["summary", str(d)]),
        ("empty", lambda d: ["summary", _file(d, "e.json", b"")]),
        ("not-json", lambda d: ["summary", _file(d, "n.json", b"{nope")]),
        ("json-list", lambda d: ["summary", _file(d, "l.json", b"[1, 2]")]),
        ("json-number", lambda d: ["summary", _file(d, "num.json", b"3")]),
        ("no-events", lambda d: ["summary", _file(d, "ne.json", b'{"a": 1}')]),
        ("junk-events", lambda d: ["summary", _file(d, "je.json", b'{"traceEvents": [1, "x", null]}')]),
        ("bad-gzip", lambda d: ["summary", _file(d, "b.json.gz", b"not gzip")]),
        ("gzip-junk", lambda d: ["summary", _file(d, "g.json.gz", gzip.compress(b"{junk"))]),
        ("validate-junk", lambda d: ["validate", _file(d, "v.json", b'{"traceEvents": [{"ph": "X"}]}')]),
        ("timeline-missing", lambda d: ["timeline", str(d / "no.json")]),
        ("timeline-out-proc", lambda d: ["timeline", _file(d, "ok.json", json.dumps(good).encode()), "--out",
                                         "/proc/x.png"]),
        ("markup-path", lambda d: ["summary", str(d / "x[/].json")]),
        ("unknown-command", lambda d: ["frobnicate"]),
        ("top-not-int", lambda d: ["summary", "x.json", "--top", "abc"]),
    ]


TRACE = _trace_cases()


@pytest.mark.parametrize("case", TRACE, ids=[c[0] for c in TRACE])
def test_npu_trace_cli(case, tmp_path, capsys):
    from traces.cli import main
    name, argv = case
    code, out, err = call_main(main, argv(tmp_path), capsys)
    assert code in (1, 2), (name, code, out, err)
    assert "Traceback" not in out + err and err.strip(), (name, out, err)


# ---------------------------------------------------------------------------- the binding
def _binding_cases():
    from acl_runtime import acl
    rt = acl.rt
    return [
        ("malloc-negative", lambda: rt.malloc(-1, 0)),
        ("malloc-zero", lambda: rt.malloc(0, 0)),
        ("malloc-huge", lambda: rt.malloc(2 ** 70, 0)),
        ("malloc-str", lambda: rt.malloc("64", 0)),
        ("malloc-float", lambda: rt.malloc(1.5, 0)),
        ("malloc-bool", lambda: rt.malloc(True, 0)),
        ("malloc-policy", lambda: rt.malloc(64, 7)),
        ("malloc-none", lambda: rt.malloc(None, 0)),
        ("free-zero", lambda: rt.free(0)),
        ("free-negative", lambda: rt.free(-1)),
        ("free-junk", lambda: rt.free(12345)),
        ("free-str", lambda: rt.free("x")),
        ("free-twice", None),   # (run in the test body: needs the pointer)
        ("malloc-host-negative", lambda: rt.malloc_host(-5)),
        ("free-host-junk", lambda: rt.free_host(1)),
        ("memcpy-kind", lambda: rt.memcpy(0, 8, 0, 8, 9)),
        ("memcpy-count>max", lambda: rt.memcpy(0, 4, 0, 8, 1)),
        ("memcpy-bogus-host", lambda: rt.memcpy(rt.malloc(64, 0)[0], 64, 999, 64, 1)),
        ("memcpy-bogus-dev", lambda: rt.memcpy(999, 64, acl.util.numpy_to_ptr(_HOST), 64, 1)),
        ("memcpy-negative", lambda: rt.memcpy(-1, 8, -1, 8, 3)),
        ("memcpy-str", lambda: rt.memcpy("a", 8, "b", 8, 3)),
        ("memcpy-async-bad-stream", lambda: rt.memcpy_async(0, 8, 0, 8, 3, 999)),
        ("destroy-default-stream", lambda: rt.destroy_stream(0)),
        ("destroy-stream-twice", lambda: (rt.destroy_stream(_stream()), rt.destroy_stream(_LAST["s"]))[1]),
        ("destroy-stream-junk", lambda: rt.destroy_stream(999)),
        ("sync-stream-junk", lambda: rt.synchronize_stream(999)),
        ("sync-stream-str", lambda: rt.synchronize_stream("0")),
        ("sync-stream-bool", lambda: rt.synchronize_stream(True)),
        ("record-event-junk", lambda: rt.record_event(999, 0)),
        ("wait-event-junk", lambda: rt.stream_wait_event(0, 999)),
        ("sync-event-junk", lambda: rt.synchronize_event(999)),
        ("destroy-event-junk", lambda: rt.destroy_event(999)),
        ("elapsed-unrecorded", lambda: rt.event_elapsed_time(rt.create_event()[0], rt.create_event()[0])),
        ("wait-forever", lambda: (rt.stream_wait_event(_stream(), rt.create_event()[0]),
                                  rt.synchronize_stream(_LAST["s"]))[1]),
        ("set-device-1", lambda: rt.set_device(1)),
        ("set-device-str", lambda: rt.set_device("0")),
        ("set-device-float", lambda: rt.set_device(0.0)),
        ("reset-device-3", lambda: rt.reset_device(3)),
        ("sys-param-opt", lambda: rt.set_sys_param_opt(99, 1)),
        ("sys-param-value", lambda: rt.set_sys_param_opt(0, 2)),
        ("sys-param-str", lambda: rt.get_sys_param_opt("x")),
        ("set-context-junk", lambda: rt.set_context(0)),
        ("set-context-str", lambda: rt.set_context("ctx")),
        ("init-twice", lambda: acl.init()),
        ("init-bad-chip", lambda: (acl.finalize(), acl.init(chip="nonesuch"))[1]),
        ("init-chip-type", lambda: (acl.finalize(), acl.init(chip=42))[1]),
    ]


_HOST = np.zeros(16, np.float32)
_LAST: dict = {}


def _stream():
    from acl_runtime import acl
    _LAST["s"] = acl.rt.create_stream()[0]
    return _LAST["s"]


BINDING = _binding_cases()


@pytest.mark.parametrize("case", BINDING, ids=[c[0] for c in BINDING])
def test_binding(case, npu):
    from acl_runtime import acl
    name, call = case
    if name == "free-twice":
        ptr, _ = acl.rt.malloc(64, 0)
        assert acl.rt.free(ptr) == 0
        ret = acl.rt.free(ptr)
    else:
        ret = call()
    assert_binding_refuses(name, ret)


# ---------------------------------------------------------------------------- the Pythonic layer
def _pythonic_cases():
    import opsnn
    from acl_runtime import Session

    def ops(s):
        return s.to_device(np.ones(8, np.float32)), s.empty((8,), np.float32)

    return [
        ("session-bad-chip", lambda s: Session("nonesuch").open()),
        ("session-nested", lambda s: Session("tiny").open()),
        ("empty-negative", lambda s: s.empty(-1, np.float32)),
        ("empty-neg-dim", lambda s: s.empty((2, -3), np.float32)),
        ("empty-bad-dtype", lambda s: s.empty((2,), "nonsense")),
        ("empty-object-dtype", lambda s: s.empty((2,), object)),
        ("empty-oom", lambda s: s.empty((2 ** 40,), np.float32)),
        ("empty-float-shape", lambda s: s.empty((2.5,), np.float32)),
        ("to-device-ragged", lambda s: s.to_device([[1], [1, 2]])),
        ("to-device-object", lambda s: s.to_device(np.array([{}], dtype=object))),
        ("to-device-str", lambda s: s.to_device(np.array(["ab"]))),
        ("memcpy-mismatch", lambda s: s.memcpy(s.empty((2,), np.float32), np.ones(8, np.float32))),
        ("memcpy-junk", lambda s: s.memcpy("a", "b")),
        ("memcpy-kind", lambda s: s.memcpy(s.empty((8,), np.float32), np.ones(8, np.float32), kind=7)),
        ("numpy-after-free", lambda s: (lambda a: (a.free(), a.numpy()))(s.empty((4,), np.float32))),
        ("stream-after-destroy", lambda s: (lambda st: (st.destroy(), st.synchronize()))(s.stream())),
        ("run-op-none", lambda s: opsnn.run_op(None, None)),
        ("run-op-swapped", lambda s: opsnn.run_op(opsnn.aclnnRelu, opsnn.aclnnReluGetWorkspaceSize, *ops(s))),
        ("run-op-not-aclnn", lambda s: opsnn.run_op(len, len, *ops(s))),
        ("run-op-missing-arg", lambda s: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu,
                                                      ops(s)[0])),
        ("run-op-shape-mismatch", lambda s: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu,
                                                         s.to_device(np.ones(8, np.float32)),
                                                         s.empty((4,), np.float32))),
        ("run-op-dtype-mismatch", lambda s: opsnn.run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul,
                                                         s.to_device(np.ones((2, 2), np.float32)),
                                                         s.to_device(np.ones((2, 2), np.int8)),
                                                         s.empty((2, 2), np.float32), 0)),
        ("run-op-bad-stream", lambda s: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, *ops(s),
                                                     stream=999)),
        ("event-elapsed-unrecorded", lambda s: (lambda a, b: type(a).elapsed_ms(a, b))(s.event(), s.event())),
        ("use-after-close", lambda s: (s.close(), s.empty((2,), np.float32))),
    ]


PYTHONIC = _pythonic_cases()


@pytest.mark.parametrize("case", PYTHONIC, ids=[c[0] for c in PYTHONIC])
def test_pythonic(case):
    assert_pythonic_refuses(*case)


def test_sweep_count():
    assert len(CLI) + len(TRACE) + len(BINDING) + len(PYTHONIC) >= 100
