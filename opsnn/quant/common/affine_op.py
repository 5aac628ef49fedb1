"""The host and body halves every affine quant op (Quantize, DequantizeLinear) shares
after its own dtype checks: scale-vector placement, tiling, tile program, workspace
plan, numpy body and executor."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...base.checks import check_shape
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.memview import tensor_view, write_out
from ...common.contiguous import WorkspacePlan
from .affine import expand_blocks, param_plan
from .checks import check_block_params


def affine_body(x_ref, scale_ref, zp_ref, out_ref, compute: Callable):
    """Body factory: reads x, scale (and zero point), writes ``compute(x, scale, zp)``
    (cast to out's dtype by the store)."""
    def make(addrs, ws):
        ax, asc, ao = x_ref.addr(addrs, ws), scale_ref.addr(addrs, ws), out_ref.addr(addrs, ws)
        az = zp_ref.addr(addrs, ws) if zp_ref is not None else None

        def body(mem):
            x = tensor_view(mem, ax, x_ref.meta)
            s = np.asarray(tensor_view(mem, asc, scale_ref.meta))
            z = np.asarray(tensor_view(mem, az, zp_ref.meta)) if zp_ref is not None else None
            write_out(mem, ao, out_ref.meta, compute(x, s, z))
        return body
    return make


def build_affine(chip, api: str, name: str, x, scale, zp, out, axis: int, key, compute: Callable,
                 tiling: Callable, program: Callable) -> aclOpExecutor:
    """The executor of affine op ``name`` (checks done): the vectors resident in UB or
    streamed (:func:`param_plan`), the op's ``tiling(chip, numel, in_bytes, out_bytes,
    param_bytes, key)`` and ``program(td, in_bytes, out_bytes, param_bytes, args, key)``
    (its tiling.py / kernel.py, over :func:`affine_tiling` / :func:`affine_spec`), key
    ``key`` (an IntEnum; its lower-case name is the trace's "mode"), the Contiguous /
    ViewCopy plan and the body ``compute(x, scale, zp)``."""
    pbytes, extra = param_plan(chip, scale.nbytes + (zp.nbytes if zp is not None else 0),
                               scale.itemsize + (zp.itemsize if zp is not None else 0))
    in_b = x.itemsize + extra
    res = tiling(chip, x.numel, in_b, out.itemsize, pbytes, key)
    args = {"shape": list(x.view_shape), "dtype": x.dtype_name, "out_dtype": out.dtype_name, "axis": axis,
            "mode": key.name.lower(), "params": "streamed" if extra else "resident"}
    spec = program(res.data, in_b, out.itemsize, pbytes, args, res.tiling_key)
    inputs = [t for t in (x, scale, zp) if t is not None]
    plan = WorkspacePlan(chip, api)
    refs = [plan.input(t, i) for i, t in enumerate(inputs)]
    out_ref = plan.output(out, len(inputs))
    body = affine_body(refs[0], refs[1], refs[2] if zp is not None else None, out_ref, compute)
    return aclOpExecutor(name, plan.kernels([PreparedKernel(spec, body)]), inputs, [out], plan.size,
                         info={"tiling": spec.args["tiling"], "mode": key.name.lower()})


def build_blocked(chip, api: str, name: str, x, scale, zp, out, axis, block_size, key, values: Callable,
                  tiling: Callable, program: Callable) -> aclOpExecutor:
    """:func:`build_affine` for a blocked (ONNX opset 21 ``block_size``) op after its dtype
    checks: the block parameters and ``out``'s shape checked (161002 naming ``api``),
    then the body ``values(x, scale, zp, axis)`` on scale / zero point repeated
    ``block_size`` times along ``axis`` (:func:`~.affine.expand_blocks`)."""
    ax, blk = check_block_params(api, x, scale, zp, axis, block_size)
    check_shape(api, "out", out, tuple(x.view_shape))
    shape = tuple(x.view_shape)
    return build_affine(chip, api, name, x, scale, zp, out, ax, key,
                        lambda xv, sv, zv: values(xv, expand_blocks(sv, shape, ax, blk),
                                                  expand_blocks(zv, shape, ax, blk), ax),
                        tiling, program)
