"""The shared Contiguous / ViewCopy mechanism: view analysis, the DMA-block cost
formula (hand-computed cases), workspace placement, kernel order, and numbers through
a real op with non-contiguous inputs and outputs."""
import numpy as np
import pytest

import opsnn
from npu_sim.chips import get_chip
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.base.tensor import aclTensor
from opsnn.common.contiguous import (DMA_BLOCK_BYTES, WorkspacePlan, collapse_view, gather_bytes, needs_copy,
                                     prepare_contiguous, scatter_bytes)

TINY = get_chip("tiny")


def meta(shape, strides, dt=T.ACL_FLOAT, offset=0):
    return aclTensor(shape, dt, strides, offset, 2, (10**6,), 0)


def stage_bytes(spec, pipe):
    return sum(s.nbytes * ts.count for b in spec.blocks for ts in b.tiles for s in ts.stages if s.pipe is pipe)


def test_needs_copy():
    assert not needs_copy(meta((2, 3), (3, 1)))
    assert not needs_copy(meta((2, 3), (3, 1), offset=5))          # an offset alone is fine
    assert not needs_copy(meta((1, 3), (99, 1)))                   # size-1 dims ignored
    assert needs_copy(meta((2, 3), (1, 2)))                        # transposed
    assert needs_copy(meta((2, 3), (6, 2)))                        # every other element
    assert needs_copy(meta((2, 3), (0, 1)))                        # broadcast


def test_collapse_view():
    assert collapse_view((2, 3, 4), (12, 4, 1)) == [(24, 1)]
    assert collapse_view((2, 1, 3, 4), (40, 7, 8, 1)) == [(2, 40), (3, 8), (4, 1)]
    assert collapse_view((5, 3), (1, 5)) == [(5, 1), (3, 5)]
    assert collapse_view((4, 6), (0, 1)) == [(6, 1)]                # broadcast dim dropped


def test_gather_and_scatter_bytes():
    b = DMA_BLOCK_BYTES
    assert b == 32
    # contiguous rows of 10 float32 (40 B -> 64 B of blocks), 3 runs
    assert gather_bytes(meta((3, 10), (16, 1))) == 3 * 64
    # transpose of a 4x8 float32: inner stride 8 elements = 32 B, one block per element
    assert gather_bytes(meta((8, 4), (1, 8))) == 32 * b
    # transpose of a 4x4 float32: inner stride 16 B < 32 B, so each run of 4 covers
    # ((4-1)*4+1)*4 = 52 B -> 64 B, cheaper than 4 blocks of 32 B; 4 runs
    assert gather_bytes(meta((4, 4), (1, 4))) == 4 * 64
    # inner stride 100 elements: one block per element
    assert gather_bytes(meta((8, 4), (1, 100))) == 32 * b
    # every other float16 of 10: span ((10-1)*2+1)*2 = 38 B -> 64 B per run
    assert gather_bytes(meta((3, 10), (40, 2), T.ACL_FLOAT16)) == 3 * 64
    # a broadcast dim is read once
    assert gather_bytes(meta((7, 8), (0, 1))) == 32
    # scatter: contiguous runs aligned; strided runs one block per element
    assert scatter_bytes(meta((3, 10), (16, 1))) == 3 * 64
    assert scatter_bytes(meta((3, 10), (40, 2), T.ACL_FLOAT16)) == 30 * b


def test_copy_kernel_charges_the_formula():
    t = meta((8, 40), (1, 8))   # transposed 40x8 float32
    cc = prepare_contiguous(TINY, t, slot=0, ws_offset=64, op="test")
    assert cc.kernel.spec.name == "Contiguous" and cc.ws_offset == 64
    assert cc.workspace_bytes == 8 * 40 * 4
    assert cc.tensor.view_strides == (40, 1) and cc.tensor.view_shape == (8, 40)
    mte2 = stage_bytes(cc.kernel.spec, Pipe.MTE2)
    assert abs(mte2 - gather_bytes(t)) <= cc.kernel.spec.block_dim * 2   # per-tile rounding only
    assert stage_bytes(cc.kernel.spec, Pipe.MTE3) == t.nbytes


def test_workspace_plan_places_copies_and_orders_kernels():
    plan = WorkspacePlan(TINY, "aclnnTest")
    x = meta((5, 7), (1, 5))
    y = meta((5, 7), (7, 1))
    out = meta((5, 7), (14, 2))
    rx, ry, ro = plan.input(x, 0), plan.input(y, 1), plan.output(out, 2)
    assert rx.in_workspace and rx.ws_offset == 0
    assert not ry.in_workspace and ry.meta is y and ry.addr([100, 200, 300], 5000) == 200
    assert ro.in_workspace and ro.ws_offset == 160       # 140 B aligned up to 32
    assert plan.size == 320
    assert ro.addr([0, 0, 0], 4096) == 4096 + 160
    assert [k.spec.name for k in plan.kernels([])] == ["Contiguous", "ViewCopy"]


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int8])
def test_add_with_non_contiguous_inputs_and_output(npu, rng, dt):
    """Transposed + sliced inputs and a strided output through aclnnAdd: kernels
    Contiguous, Contiguous, Add, ViewCopy; workspace = three aligned buffers; the
    numbers match numpy and the out view's gaps are untouched."""
    a = (rng.standard_normal((9, 21)) * 4).astype(dt)
    b = (rng.standard_normal((9, 21)) * 4).astype(dt)
    ita = np.dtype(dt).itemsize
    pa, _ = npu.to_device(np.ascontiguousarray(a.T))
    ta = opsnn.aclCreateTensor((9, 21), from_numpy_dtype(dt), (1, 9), 0, 2, (21, 9), pa)
    big = np.zeros((9, 50), dt)
    big[:, 3:45:2] = b
    pb, _ = npu.to_device(big)
    tb = opsnn.aclCreateTensor((9, 21), ta.data_type, (50, 2), 3, 2, (9, 50), pb)
    po, _ = npu.to_device(np.full((9, 42), 7, dt))
    to = opsnn.aclCreateTensor((9, 21), ta.data_type, (42, 2), 0, 2, (9, 42), po)
    alpha = 1.0 if np.dtype(dt).kind == "f" else 1
    ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(ta, tb, alpha, to)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    assert [k.spec.name for k in ex.kernels] == ["Contiguous", "Contiguous", "Add", "ViewCopy"]
    one = -(-9 * 21 * ita // 32) * 32
    assert ws == 3 * one
    npu.run((ws, ex, ret), opsnn.aclnnAdd)
    full = npu.to_host(po, (9, 42), dt)
    want = (a.astype(np.float64) + b.astype(np.float64)).astype(dt)
    np.testing.assert_allclose(full[:, 0::2].astype(np.float64), want.astype(np.float64), rtol=1e-3)
    assert np.all(full[:, 1::2] == 7)


def test_contiguous_offset_view_needs_no_workspace(npu, rng):
    """A contiguous view at an element offset is read in place: no copy, workspace 0."""
    base = rng.standard_normal(40).astype(np.float32)
    p, _ = npu.to_device(base)
    t = opsnn.aclCreateTensor((4, 8), T.ACL_FLOAT, (8, 1), 8, 2, (40,), p)
    po, to = npu.empty((4, 8), np.float32)
    ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(t, to)
    assert (ret, ws, [k.spec.name for k in ex.kernels]) == (0, 0, ["Relu"])
    npu.run((ws, ex, ret), opsnn.aclnnRelu)
    np.testing.assert_array_equal(npu.to_host(po, (4, 8), np.float32), np.maximum(base[8:], 0).reshape(4, 8))


def test_inplace_on_a_strided_view(npu, rng):
    """InplaceMul on a strided selfRef: Contiguous in, Mul, ViewCopy back into the view."""
    big = rng.standard_normal((6, 10)).astype(np.float32)
    p, _ = npu.to_device(big)
    t = opsnn.aclCreateTensor((6, 5), T.ACL_FLOAT, (10, 2), 1, 2, (6, 10), p)
    o = rng.standard_normal((5,)).astype(np.float32)
    ws, ex, ret = opsnn.aclnnInplaceMulGetWorkspaceSize(t, npu.to_device(o)[1])
    assert [k.spec.name for k in ex.kernels] == ["Contiguous", "Mul", "ViewCopy"]
    npu.run((ws, ex, ret), opsnn.aclnnInplaceMul)
    got = npu.to_host(p, (6, 10), np.float32)
    want = big.copy()
    want[:, 1::2] *= o
    np.testing.assert_allclose(got, want, rtol=1e-6)
