"""aclnnRmsNorm: host half and kernel bodies. Tiling and strategy choice are shared with
LayerNorm (:func:`opsnn.norm.layer_norm.row_norm_kernels`).

CANN prototype (aclnn_rms_norm.h):
  aclnnRmsNormGetWorkspaceSize(x, gamma, epsilon, yOut, rstdOut, workspaceSize, executor)
  aclnnRmsNorm(workspace, workspaceSize, executor, stream)

Formula: with x of shape [A1..Ai, R1..Rj] and gamma of shape [R1..Rj],
  rstd = 1 / sqrt(mean(x^2 over the R axes) + epsilon), yOut = x * rstd * gamma.
Parameters (CANN order):
  x: FLOAT, FLOAT16, BF16; ND; 1-8 dims. Non-contiguous views (any tensor) go through
    the shared Contiguous copy / ViewCopy, as in LayerNorm.
  gamma: shape equal to the trailing dims of x (its rank j picks the R axes,
    1 <= j <= rank(x)); dtype x's or FLOAT (assumption: the fp32-gamma mix that
    LayerNorm's weight allows).
  epsilon: a finite number >= 0 (double).
  yOut: x's dtype and shape.
  rstdOut: FLOAT (fp32 whatever x is, as the CANN doc says); shape [A1..Ai, 1..1]
    (j ones) or [A1..Ai]; required (161001 if null, following the doc's list of
    required outputs).
Status: 161001 null x/gamma/yOut/rstdOut; 161002 not a tensor, dtype, rank, shape or
epsilon invalid; 561002 a forced fused strategy that does not fit. An empty x prepares
an executor with no kernel. fp16/bf16 are computed in fp32 and rounded once.

Strategies (``executor.info["strategy"]``, kernel args and tiling key, as LayerNorm):
``fused`` (key 0) when a row, its fp32 work row and gamma fit UB; else ``multi_pass``
(key 1): pass 1 streams chunks and accumulates the sum of squares, writing fp32
(0, rstd) per row to the workspace (8 B a row, the LayerNorm layout) and rstdOut;
pass 2 streams the chunks again with gamma and writes yOut. Vector passes per
element: fused square, sum, * rstd, (* gamma) (+ casts); the two passes split them.
Simulator extension: keyword-only ``strategy`` ("fused" / "multi_pass") forces one.
"""
from __future__ import annotations

from dataclasses import asdict

import numpy as np

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid)
from ..base.dtypes import aclDataType
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from ..common.contiguous import WorkspacePlan
from ..base.tiling_base import TilingRegistry
from .common.host import MAX_RANK, check_eps, plan_refs
from .common.kernel import chunked_moments
from .common.kernel import read_f32 as _read
from .common.kernel import row_norm_kernels as _row_norm_kernels
from .common.kernel import write_ref as _write
from .common.tiling import FusedRowNorm, MultiPassRowNorm

_REGISTRY = TilingRegistry("RmsNorm")
_REGISTRY.register(priority=0)(FusedRowNorm)
_REGISTRY.register(priority=1)(MultiPassRowNorm)
STRATEGIES = _REGISTRY.names


def row_norm_kernels(chip, name, rows, d, item, witem, n_affine, stats_out, centre, strategy, args):
    return _row_norm_kernels(_REGISTRY, chip, rows, d, item, witem, n_affine, stats_out, centre, strategy, args)

OP = "aclnnRmsNorm"


def _fused_body(refs, rows, d, eps):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["x"], (rows, d))
            g = _read(mem, addrs, ws, refs["gamma"], d)
            ms = np.einsum("ij,ij->i", x, x, dtype=np.float32) / np.float32(d)
            rstd = np.float32(1) / np.sqrt(ms + np.float32(eps))
            _write(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
            _write(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def _stats_body(refs, rows, d, c, eps, stats_off):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["x"], (rows, d))
            _, sumsq = chunked_moments(x, c, centre=False)
            rstd = np.float32(1) / np.sqrt(sumsq / np.float32(d) + np.float32(eps))
            mem.array(ws + stats_off, (rows, 2), np.float32)[...] = np.stack([np.zeros_like(rstd), rstd], axis=1)
            _write(mem, addrs, ws, refs["rstd"], rstd)
        return body
    return make


def _apply_body(refs, rows, d, stats_off):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["x"], (rows, d))
            g = _read(mem, addrs, ws, refs["gamma"], d)
            rstd = np.array(mem.array(ws + stats_off, (rows, 2), np.float32))[:, 1]
            _write(mem, addrs, ws, refs["y"], x * rstd[:, None] * g)
        return body
    return make


def _build(chip, x, gamma, epsilon, yOut, rstdOut, strategy):  # noqa: N803
    check_not_null(OP, x=x, gamma=gamma, epsilon=epsilon, yOut=yOut, rstdOut=rstdOut)
    check_tensor_type(OP, x=x, gamma=gamma, yOut=yOut, rstdOut=rstdOut)
    check_dtype(OP, "x", x, FLOAT_TYPES_BF16)
    check_dtype(OP, "gamma", gamma, tuple(dict.fromkeys((x.data_type, aclDataType.ACL_FLOAT))))
    check_dtype(OP, "yOut", yOut, (x.data_type,))
    check_dtype(OP, "rstdOut", rstdOut, (aclDataType.ACL_FLOAT,))
    shape = tuple(x.view_shape)
    if not 1 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"x must be 1-D to {MAX_RANK}-D, got shape {list(shape)}")
    gshape = tuple(gamma.view_shape)
    j = len(gshape)
    if not 1 <= j <= len(shape) or shape[-j:] != gshape:
        raise invalid(OP, f"gamma shape {list(gshape)} does not match the trailing dims of x shape {list(shape)}")
    check_shape(OP, "yOut", yOut, shape)
    a = shape[:-j]
    if tuple(rstdOut.view_shape) != a:
        check_shape(OP, "rstdOut", rstdOut, a + (1,) * j)
    eps_f = check_eps(OP, "epsilon", epsilon)
    if eps_f < 0:
        raise invalid(OP, f"epsilon must be >= 0, got {epsilon!r}")
    if strategy is not None and strategy not in STRATEGIES:
        raise invalid(OP, f"strategy must be one of {', '.join(STRATEGIES)} or None, got {strategy!r}")
    if x.numel == 0:
        return aclOpExecutor("RmsNorm", [], [x, gamma], [yOut, rstdOut], 0, info={"strategy": "empty"})
    d = gamma.numel
    rows = x.numel // d
    args = {"shapes": [list(shape), list(gshape)], "dtype": x.dtype_name, "epsilon": eps_f, "affine": "fused"}
    specs, td = row_norm_kernels(chip, "RmsNorm", rows, d, x.itemsize, gamma.itemsize, 1, 4, False, strategy, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("x", x), ("gamma", gamma)), ((("y", "yOut"), yOut), (("rstd", "rstdOut"), rstdOut)))
    if td.strategy == "fused":
        main = [PreparedKernel(specs[0], _fused_body(refs, rows, d, eps_f))]
    else:
        off = plan.alloc(td.workspace_bytes)
        main = [PreparedKernel(specs[0], _stats_body(refs, rows, d, td.chunk_elems, eps_f, off)),
                PreparedKernel(specs[1], _apply_body(refs, rows, d, off))]
    kernels = plan.kernels(main)
    info = dict(asdict(td), tiling_key=specs[0].tiling_key, tiling=[s.args["tiling"] for s in specs],
                workspace_bytes=plan.size, copies=[k.spec.name for k in kernels if all(k is not m for m in main)])
    return aclOpExecutor("RmsNorm", kernels, [x, gamma], [yOut, rstdOut], plan.size, info=info)


def aclnnRmsNormGetWorkspaceSize(x, gamma, epsilon, yOut, rstdOut, *, strategy=None):  # noqa: N802,N803
    """Phase 1 of RmsNorm (module doc: parameters, dtypes, errors). Returns
    ``(workspace_size, executor, status)``. ``strategy`` (keyword-only simulator
    extension): None, "fused" or "multi_pass"."""
    return prepare("RmsNorm", lambda chip: _build(chip, x, gamma, epsilon, yOut, rstdOut, strategy))


def aclnnRmsNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of RmsNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("RmsNorm", workspace, workspaceSize, executor, stream)


def rms_norm_golden(x, gamma, eps=1e-6):
    """float64 reference: returns (y, rstd) with rstd shaped [A..., 1...]."""
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    axes = tuple(range(x.ndim - g.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return x * rstd * g, rstd
