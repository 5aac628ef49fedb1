"""Weights without copies (issue 17): a graph-mode run shares each uploaded constant's
host bytes with the device instead of copying them, and the bodies read them in place.

* The frontend makes an uploaded constant read-only (``frontend.program.freeze``); the
  device allocation then views the host bytes (``DeviceMemory`` "shared") and stays so
  through a whole run (the Conv / FusedConv / Gemm bodies read weights read-only).
* A device-side write to a weight (aclrtMemset) makes a private copy first: the host
  array is unchanged, and the next run sees the written bytes.
* The host cannot write a shared constant (numpy refuses), and outputs are the bytes of
  a run whose constants were copied (``freeze`` disabled).
* The unpacked FRACTAL_Z weight kept on the device buffer (``DeviceMemory.derived``)
  serves repeated runs while the bytes are immutable and is dropped by a device write.
* The matmul body's in-place transposed right operand gives the bits of the copy.
"""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_runtime import acl
from frontend import program
from frontend.onnx_import import load_onnx
from frontend.passes import formats as formats_pass
from frontend.runner import ModelRunner
from opsnn.matmul.matmul.kernel import _as_f32, _b_operand
from opsnn.transform.trans_data import oihw_to_fractal_z


def _model(rng, w1_scale=1.0):
    w1 = (rng.standard_normal((16, 8, 3, 3)) * w1_scale).astype(np.float32)   # packed conv (FRACTAL_Z)
    b1 = rng.standard_normal(16).astype(np.float32)
    w2 = rng.standard_normal((16, 16, 1, 1)).astype(np.float32)      # 1x1 conv
    wf = rng.standard_normal((24, 16 * 6 * 6)).astype(np.float32)    # Gemm transB=1
    bf = rng.standard_normal(24).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["c2"]),
             helper.make_node("Flatten", ["c2"], ["f"]),
             helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    inits = [numpy_helper.from_array(a, n) for n, a in (("w1", w1), ("b1", b1), ("w2", w2), ("wf", wf), ("bf", bf))]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 24])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _runner(graph):
    r = ModelRunner(graph, mode="graph", memory="planned")
    r.prepare()
    return r


def _weights(r):
    return {n: r.values[n].ptr for n in r.graph.constants
            if n in r.values and np.asarray(r.graph.constants[n]).nbytes >= 256}


def test_constants_shared_not_copied_and_outputs_identical(device, monkeypatch):
    rng = np.random.default_rng(5)
    x = {"x": rng.standard_normal((2, 8, 6, 6)).astype(np.float32)}
    with monkeypatch.context() as mp:    # the copying uploads of before: nothing frozen
        mp.setattr(program, "freeze", lambda a: None)
        mp.setattr(formats_pass, "pack_constant_weight", oihw_to_fractal_z)   # a writable FRACTAL_Z weight
        ref = _runner(load_onnx(_model(np.random.default_rng(1))))
    want = ref.run(x).outputs["y"]
    # the FRACTAL_Z weight is made by a pass (a writable array): it was copied before
    assert not any(device.find(p, 1).shared for n, p in _weights(ref).items() if n.endswith("__fractal_z"))
    r = _runner(load_onnx(_model(np.random.default_rng(1))))
    got = r.run(x).outputs["y"]
    ws = _weights(r)
    assert any(n.endswith("__fractal_z") for n in ws) and len(ws) >= 3
    for n, p in ws.items():
        assert device.find(p, 1).shared, n                      # still shared after the bodies ran
        assert not r.graph.constants[n].flags.writeable, n      # frozen on the host
    assert got.tobytes() == want.tobytes()


def test_device_write_copies_first_and_host_cannot_write(device):
    rng = np.random.default_rng(6)
    x = {"x": rng.standard_normal((2, 8, 6, 6)).astype(np.float32)}
    r = _runner(load_onnx(_model(np.random.default_rng(2))))
    before = r.run(x).outputs["y"]
    name = next(n for n in _weights(r) if n == "wf" or n.endswith("wf"))
    host = r.graph.constants[name]
    keep = host.copy()
    with pytest.raises(ValueError):
        host[0] = 0                                             # the host cannot change shared bytes
    ptr, nbytes = r.values[name].ptr, host.nbytes
    assert acl.rt.memset(ptr, nbytes, 0, nbytes) == 0           # a device-side write
    assert not device.find(ptr, 1).shared                       # a private copy was made first
    assert np.array_equal(host, keep) and host.tobytes() == keep.tobytes()
    after = r.run(x).outputs["y"]
    assert not np.array_equal(after, before)                    # the run reads the written (zero) weight
    assert np.allclose(after, np.broadcast_to(r.graph.constants["bf"], after.shape))


@pytest.mark.parametrize("m,k,n", [(1, 9, 3), (2, 9216, 64), (3, 17, 5), (8, 768, 768), (64, 100, 33),
                                   (200, 512, 65), (16, 511, 257)])
def test_transposed_right_operand_in_place_has_the_copy_bits(m, k, n):
    rng = np.random.default_rng(m * k + n)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((n, k), dtype=np.float32).T
    assert _b_operand(b, a) is b                                # no copy
    assert np.matmul(a, b).tobytes() == np.matmul(a, _as_f32(b)).tobytes()
    at = rng.standard_normal((k, m), dtype=np.float32).T
    if m > 1:   # (a 1 x k transposed view is C-contiguous too)
        assert _b_operand(b, at) is not b                       # a transposed left operand: as before
    assert _b_operand(b.astype(np.float16), a).dtype == np.float32


def test_derived_kept_while_shared_and_dropped_by_a_write():
    from npu_sim.device_memory import DeviceMemory
    m = DeviceMemory(1 << 20)
    host = np.arange(16, dtype=np.float32)
    host.flags.writeable = False
    a = m.malloc(host.nbytes)
    m.write(a, host)
    calls = []

    def make(v):
        calls.append(1)
        return v * 2

    got = [m.derived(a, (16,), np.float32, "x2", make) for _ in range(4)]
    assert len(calls) == 2 and got[2] is got[3] and not got[3].flags.writeable   # kept from the 2nd use
    assert all(np.array_equal(g, host * 2) for g in got)
    m.array(a, (1,), np.float32)[0] = 100                       # a device write: private copy, cache dropped
    assert np.array_equal(m.derived(a, (16,), np.float32, "x2", make)[:2], [200, 2]) and len(calls) == 3
    m.derived(a, (16,), np.float32, "x2", make)
    assert len(calls) == 4                                      # private: computed on every call
    assert host[0] == 0


def test_repeated_runs_reuse_the_unpacked_weight_until_it_is_written(device):
    rng = np.random.default_rng(7)
    x = {"x": rng.standard_normal((2, 8, 6, 6)).astype(np.float32)}
    r = _runner(load_onnx(_model(np.random.default_rng(3))))
    outs = [r.run(x).outputs["y"] for _ in range(3)]
    assert outs[0].tobytes() == outs[1].tobytes() == outs[2].tobytes()
    name = next(n for n in _weights(r) if n.endswith("__fractal_z"))
    ptr = r.values[name].ptr
    assert device.find(ptr, 1).derived                          # the unpacked form is kept
    nbytes = r.graph.constants[name].nbytes
    assert acl.rt.memset(ptr, nbytes, 0, nbytes) == 0           # zero the packed conv weight on the device
    assert device.find(ptr, 1).derived is None
    got = r.run(x).outputs["y"]
    zero = _runner(load_onnx(_model(np.random.default_rng(3), w1_scale=0.0))).run(x).outputs["y"]
    assert got.tobytes() == zero.tobytes()
