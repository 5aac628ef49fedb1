"""FRACTAL_Z weights packed at build time keep their OIHW source (issue 17, full runs):
``opsnn.transform.trans_data.constants``.

* ``pack_constant_weight`` gives the bytes of the element-by-element golden layout,
  read-only, and ``unpack_weight`` of it is the source itself, equal to the reference
  unpack ``fractal_z_to_oihw``; any other array with those bytes (a copy, a view with
  other strides) is unpacked, as is one whose source is not immutable.
* A graph-mode run (conv weights packed by ``keep_nc1hwc0``, shared with the device)
  gives the output bytes of the same run with every weight unpacked by the reference
  path, and a device write to a packed weight is seen by the next run.
"""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_runtime import acl
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from opsnn.transform.trans_data import constants, fractal_z_to_oihw
from opsnn.transform.trans_data.golden import golden_fractal_z


@pytest.mark.parametrize("shape,dtype,c0", [((16, 8, 3, 3), np.float32, 8), ((70, 3, 7, 7), np.float32, 8),
                                            ((17, 33, 1, 1), np.float16, 16), ((130, 24, 2, 5), np.float16, 16),
                                            ((200, 16, 1, 1), np.float32, 8), ((40, 64, 1, 1), np.float16, 16)])
def test_packed_bytes_and_kept_source(shape, dtype, c0):
    wt = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
    keep = wt.copy()
    wz = constants.pack_constant_weight(wt, c0)
    assert wz.tobytes() == golden_fractal_z(keep, c0).astype(dtype).tobytes()
    assert wz.base is None and not wz.flags.writeable and not wt.flags.writeable
    got = constants.unpack_weight(wz, shape)
    assert got is wt and got.tobytes() == fractal_z_to_oihw(wz, shape).tobytes() == keep.tobytes()
    copy = wz.copy()                                   # the same bytes elsewhere: unpacked
    other = constants.unpack_weight(copy, shape)
    assert other is not wt and other.tobytes() == keep.tobytes()


def test_strided_1x1_weight_packs_as_the_golden_layout():
    base = np.random.default_rng(4).standard_normal((1, 16, 70, 2)).astype(np.float32)
    wt = base.transpose(2, 1, 3, 0)[:, :, :1]          # [70, 16, 1, 1], not C-contiguous
    wz = constants.pack_constant_weight(wt, 8)
    assert wz.tobytes() == golden_fractal_z(wt, 8).astype(np.float32).tobytes()


def test_source_that_can_change_is_not_kept():
    base = np.random.default_rng(1).standard_normal((32, 16, 3, 3)).astype(np.float32)
    view = base[:16]                                   # a view: its owner stays writable
    wz = constants.pack_constant_weight(view, 8)
    got = constants.unpack_weight(wz, view.shape)
    assert got is not view and got.tobytes() == view.tobytes()
    assert base.flags.writeable


def _model(rng, scale=1.0):
    w1 = (rng.standard_normal((16, 5, 3, 3)) * scale).astype(np.float32)   # C = 5: partial C0 slice
    w2 = rng.standard_normal((24, 16, 1, 1)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["y"])]
    inits = [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 24, 6, 6])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, x, runs=1):
    r = ModelRunner(load_onnx(model), mode="graph", memory="planned")
    r.prepare()
    return r, [r.run(x).outputs["y"] for _ in range(runs)]


def test_graph_run_bytes_equal_the_reference_unpack(device, monkeypatch):
    x = {"x": np.random.default_rng(3).standard_normal((2, 5, 6, 6)).astype(np.float32)}
    calls = []
    real = constants.unpack_weight

    def counted(wz, oihw):
        got = real(wz, oihw)
        calls.append(got is constants._SOURCES.get(constants._address(wz), (None, None))[1])
        return got
    monkeypatch.setattr("opsnn.conv.convolution.formats.unpack_weight", counted)
    r, got = _run(_model(np.random.default_rng(2)), x, runs=2)
    assert calls and all(calls)                        # every FRACTAL_Z weight came from its kept source
    with monkeypatch.context() as mp:                  # the reference: every weight unpacked from the bytes
        mp.setattr("opsnn.conv.convolution.formats.unpack_weight", fractal_z_to_oihw)
        _, want = _run(_model(np.random.default_rng(2)), x)
    assert got[0].tobytes() == got[1].tobytes() == want[0].tobytes()
    name = next(n for n in r.graph.constants if n.endswith("__fractal_z") and n.startswith("w1"))
    ptr, nbytes = r.values[name].ptr, r.graph.constants[name].nbytes
    assert acl.rt.memset(ptr, nbytes, 0, nbytes) == 0   # a device write: the kept source no longer applies
    after = r.run(x).outputs["y"]
    _, zero = _run(_model(np.random.default_rng(2), scale=0.0), x)
    assert after.tobytes() == zero[0].tobytes()
