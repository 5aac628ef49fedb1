"""Shared helpers for the pooling and activation op tests."""
from __future__ import annotations

import ml_dtypes
import numpy as np

import opsnn

#: relative-error bounds by dtype (DESIGN.md section 9)
TOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-2, np.dtype(ml_dtypes.bfloat16): 1e-2}


def run_op(npu, prep, launch, x, attrs, out_specs, *, x_tensor=None):
    """Upload ``x`` (or use ``x_tensor``), allocate outputs ``[(shape, dtype), ...]``,
    call ``prep(self, *attrs, *outs)`` and the phase-2 ``launch``; returns
    (list of host outputs, executor)."""
    tx = x_tensor if x_tensor is not None else npu.to_device(x)[1]
    outs = [npu.empty(shape, dt) for shape, dt in out_specs]
    ws, ex, ret = prep(tx, *attrs, *[t for _, t in outs])
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    npu.run((ws, ex, ret), launch)
    return [npu.to_host(p, shape, dt) for (p, _), (shape, dt) in zip(outs, out_specs)], ex


def expect_error(prep, args, code: int, *fragments: str) -> str:
    """Phase 1 must fail with ``code`` and a message containing every fragment."""
    ws, ex, ret = prep(*args)
    msg = opsnn.aclGetRecentErrMsg()
    assert (ret, ex, ws) == (code, None, 0), msg
    assert msg.startswith(f"[{code}"), msg
    for f in fragments:
        assert f in msg, msg
    return msg


def assert_many_tiles(spec) -> None:
    """The tile program uses several blocks, several tiles per block, and has an
    edge (tail) tile somewhere."""
    assert spec.block_dim >= 2, spec.args["tiling"]
    tiles = sum(b.tile_count for b in spec.blocks)
    assert tiles >= 2 * spec.block_dim, spec.args["tiling"]
    programs = {tuple((ts.stages, ts.count) for ts in b.tiles) for b in spec.blocks}
    # a tail tile inside a block, or a shorter last block
    assert any(len(b.tiles) > 1 for b in spec.blocks) or len(programs) > 1, spec.args["tiling"]


def strided_view(npu, base: np.ndarray, axes):
    """Upload ``base`` and return (numpy view, non-contiguous aclTensor) for
    ``base.transpose(axes)``."""
    ptr, _ = npu.to_device(base)
    view = base.transpose(axes)
    strides = [s // base.itemsize for s in view.strides]
    from opsnn.base.dtypes import from_numpy_dtype
    t = opsnn.aclCreateTensor(view.shape, from_numpy_dtype(base.dtype), strides, 0, 0, base.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return view, t
