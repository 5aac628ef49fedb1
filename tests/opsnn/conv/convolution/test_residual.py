"""aclnnFusedConvolution's residual operand: added to the accumulator before the
FixPipe activation, on packed (NC1HWC0) and NCHW operands; its bytes read per output
tile on the last MTE2 step; the checks that refuse a bad residual."""
from __future__ import annotations

import numpy as np

import opsnn
from acl_runtime.runtime import runtime
from opsnn.conv.convolution.golden import conv2d_golden
from opsnn.transform.trans_data import nc1hwc0_shape, nc1hwc0_to_nchw, nchw_to_nc1hwc0, oihw_to_fractal_z
from npu_sim.program import Pipe
from tests.conftest import rel_err

from .test_formats import _packed

NC1HWC0, FRACTAL_Z = 3, 4
OUT = (1, 20, 6, 6)


def _prepare(tx, tw, to, residual, act="relu"):
    ia = opsnn.aclCreateIntArray
    return opsnn.aclnnFusedConvolutionGetWorkspaceSize(tx, tw, None, ia([1, 1]), ia([1, 1]), ia([1, 1]), False, None,
                                                       1, act, 0.0, 0.0, ["Conv", "Add", "Relu"], to, 0,
                                                       residual=residual)


def _run(npu, rng, packed: bool):
    x = rng.standard_normal((1, 5, 6, 6)).astype(np.float16)
    w = rng.standard_normal((20, 5, 3, 3)).astype(np.float16)
    r = rng.standard_normal(OUT).astype(np.float16)
    if packed:
        _, tx = _packed(npu, nchw_to_nc1hwc0(x, 16), x.shape, NC1HWC0)
        _, tw = _packed(npu, oihw_to_fractal_z(w, 16), w.shape, FRACTAL_Z)
        _, tr = _packed(npu, nchw_to_nc1hwc0(r, 16), OUT, NC1HWC0)
        po, to = _packed(npu, np.zeros(nc1hwc0_shape(OUT, 16), np.float16), OUT, NC1HWC0)
    else:
        _, tx = npu.to_device(x)
        _, tw = npu.to_device(w)
        _, tr = npu.to_device(r)
        po, to = npu.empty(OUT, np.float16)
    prep = _prepare(tx, tw, to, tr)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    first = len(runtime().kernel_records())
    npu.run(prep, opsnn.aclnnFusedConvolution)
    got = npu.to_host(po, to.storage_shape, np.float16)
    names, got = [k["name"] for k in runtime().kernel_records(first)], nc1hwc0_to_nchw(got, 20) if packed else got
    ref = np.maximum(conv2d_golden(x, w, None, (1, 1), (1, 1), (1, 1), 1).astype(np.float32) + r.astype(np.float32), 0)
    return prep[1], names, got, ref, (tx, tw, to)


def test_packed_residual_add_relu_in_one_kernel(npu, rng):
    ex, names, got, ref, _ = _run(npu, rng, packed=True)
    assert names == ["FusedConvolution"]
    assert rel_err(got, ref) < 1e-2
    spec = ex.kernels[0].spec
    assert spec.args["epilogue"] == ["add", "relu"] and spec.args["residual"]


def test_nchw_residual_matches_too(npu, rng):
    _, names, got, ref, _ = _run(npu, rng, packed=False)
    assert names == ["TransData", "TransData", "FusedConvolution", "TransData"]
    assert rel_err(got, ref) < 1e-2


def _mte2_bytes(spec):
    return sum(s.nbytes * t.count for b in spec.blocks for t in b.tiles for s in t.stages if s.pipe == Pipe.MTE2)


def test_residual_bytes_ride_on_mte2_once_per_output_element(npu, rng):
    ex, _, _, _, (tx, tw, to) = _run(npu, rng, packed=True)
    plain = _prepare(tx, tw, to, None)
    assert plain[2] == 0
    td = ex.kernels[0].spec.args["tiling"]
    # every output tile reads its own m x n block of the residual: M * N fp16 elements in all
    extra = _mte2_bytes(ex.kernels[0].spec) - _mte2_bytes(plain[1].kernels[0].spec)
    assert extra == td["m"] * td["n"] * 2 * td["batch"]


def test_bad_residual_is_refused(npu, rng):
    x = rng.standard_normal((1, 5, 6, 6)).astype(np.float16)
    w = rng.standard_normal((20, 5, 3, 3)).astype(np.float16)
    _, tx = npu.to_device(x)
    _, tw = npu.to_device(w)
    _, to = npu.empty(OUT, np.float16)
    for r in (np.zeros((1, 20, 1, 1), np.float16), np.zeros(OUT, np.float32)):   # broadcast; dtype
        _, tr = npu.to_device(r)
        assert _prepare(tx, tw, to, tr)[2] == 161002
    _, tr = _packed(npu, np.zeros(nc1hwc0_shape(OUT, 16), np.float16), OUT, NC1HWC0)   # format differs
    assert _prepare(tx, tw, to, tr)[2] == 161002
