"""aclnnSoftmax: host half (checks, strategy choice, vector tiling) and kernel body.

CANN prototype (aclnn_softmax.h):
  aclnnSoftmaxGetWorkspaceSize(self, dim, out, workspaceSize, executor)
  aclnnSoftmax(workspace, workspaceSize, executor, stream)
dtypes: FLOAT, FLOAT16, BF16 (``out`` as ``self``); any rank (a 0-D tensor is one
row of length 1); ``dim`` in [-rank, rank), negative counts from the end.

Formula (numerically stable): y = exp(x - max(x)) / sum(exp(x - max(x))) along ``dim``;
fp16/bf16 are computed in fp32 and rounded once.

Tiling strategies (recorded in ``executor.info["strategy"]`` and the spec's
``args["strategy"]``; tiling key 0 / 1):
  * ``one_pass`` -- a unit is one row (the ``D`` elements along ``dim``; a row of a
    non-last ``dim`` is gathered by a strided DMA). UB holds, per row, in + out
    double-buffered plus an fp32 work row (two for fp16/bf16: the cast input and
    exp). Vector passes per element: max, sub, exp, sum, div (+ casts).
  * ``multi_pass`` -- when one row does not fit UB (tiny chip: a 1000-float row
    needs 2 x (4000 + 4000) + 4000 B > 16 KiB). A unit is one chunk of ``c``
    elements of a row (every row has ``chunks_per_row`` equal chunks, ``c`` a
    multiple of 32 B). Each chunk is read three times -- pass 1 row max, pass 2 sum
    of exp(x - max), pass 3 normalise and write -- so it is charged 3 x c x itemsize
    MTE2 bytes, c x itemsize MTE3 bytes and 7 vector passes (+ casts). The UB
    budget counts all three reads' slots, a conservative bound. Blocks take
    contiguous ranges of chunks; a row that straddles two blocks is timed as if
    each block streamed its own part (the cross-core combine through GM is not
    modelled).
"""
from __future__ import annotations

import numpy as np

from ..base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.memview import tensor_view, write_out
from ..base.op import execute, prepare
from ..base.tiling import align_up, ceil_div, vector_kernel

#: UB bytes for the per-row running max and sum (two 32 B blocks)
FIXED_UB_BYTES = 64


def softmax_compute(x: np.ndarray, axis: int) -> np.ndarray:
    """Stable softmax along ``axis`` in fp32 (fp64 stays fp64)."""
    ct = np.float64 if x.dtype == np.float64 else np.float32
    x = np.asarray(x).astype(ct, copy=False)
    if x.ndim == 0:
        x = x.reshape(1)
        axis = 0
    m = x.max(axis=axis, keepdims=True)
    e = np.exp(x - m)
    e /= e.sum(axis=axis, keepdims=True)
    return e


def _body(x_t, out_t, axis: int):
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            write_out(mem, addrs[1], out_t, softmax_compute(x, axis).reshape(out_t.view_shape))
        return body
    return make


def softmax_tiling(chip, rows: int, d: int, item: int, args: dict):
    """Choose one-pass or multi-pass (module docstring) and build the vector spec.
    Returns ``(spec, info)``."""
    tmp_per_elem = 4 if item == 4 else 8          # fp32 exp row (+ fp32 cast row)
    cast_passes = 0 if item == 4 else 2           # cast in, cast out
    one_pass_slot = 2 * (d * item + d * item) + d * tmp_per_elem
    if one_pass_slot + FIXED_UB_BYTES <= chip.ub_bytes:
        spec, td = vector_kernel(chip, "Softmax", rows, d * item, d * item, (5 + cast_passes) * d * 4,
                                 tmp_bytes_per_unit=d * tmp_per_elem, fixed_ub_bytes=FIXED_UB_BYTES, tiling_key=0,
                                 args=dict(args, strategy="one_pass", bytes=2 * rows * d * item))
        info = {"strategy": "one_pass", "row_elems": d, "tiling": spec.args["tiling"]}
        return spec, info
    align = max(1, 32 // item)
    c_max = (chip.ub_bytes - FIXED_UB_BYTES) // (2 * (3 * item + item) + tmp_per_elem) // align * align
    if c_max < 1:  # pragma: no cover - a chip with under ~1 KiB of UB
        c_max = align
    cpr = ceil_div(d, c_max)
    c = min(align_up(ceil_div(d, cpr), align), c_max)
    units = rows * cpr
    # per unit (average chunk = d / cpr elements): 3 reads, 1 write, 7 passes (+ 3 casts)
    avg = d / cpr
    spec, td = vector_kernel(chip, "Softmax", units, 3 * avg * item, avg * item,
                             (7 + (3 if cast_passes else 0)) * avg * 4,
                             tmp_bytes_per_unit=c * tmp_per_elem, fixed_ub_bytes=FIXED_UB_BYTES, tiling_key=1,
                             args=dict(args, strategy="multi_pass", chunk_elems=c, chunks_per_row=cpr,
                                       bytes=4 * rows * d * item))
    info = {"strategy": "multi_pass", "row_elems": d, "chunk_elems": c, "chunks_per_row": cpr,
            "tiling": spec.args["tiling"]}
    return spec, info


def aclnnSoftmaxGetWorkspaceSize(self, dim, out):  # noqa: N802
    """Phase 1 of out = softmax(self, dim). Parameters (CANN order): self
    (FLOAT/FLOAT16/BF16, ND), dim (int64 in [-rank, rank)), out (self's dtype and
    shape). Returns (workspace_size, executor, status): 161001 null self/out/dim;
    161002 not a tensor, dtype, dim out of range or out shape."""
    def build(chip):
        op = "aclnnSoftmax"
        check_not_null(op, self=self, dim=dim, out=out)
        check_tensor_type(op, self=self, out=out)
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        check_dtype(op, "out", out, (self.data_type,))
        shape = tuple(self.view_shape)
        rank = max(len(shape), 1)
        if isinstance(dim, bool) or not hasattr(dim, "__index__"):
            raise invalid(op, f"dim must be an integer, got {dim!r}")
        if not -rank <= int(dim) < rank:
            raise invalid(op, f"dim {int(dim)} out of range [{-rank}, {rank}) for self shape {list(shape)}")
        check_shape(op, "out", out, shape)
        axis = int(dim) % rank
        if self.numel == 0:
            return aclOpExecutor("Softmax", [], [self], [out], 0, info={"strategy": "empty"})
        d = shape[axis] if shape else 1
        rows = self.numel // d
        args = {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis,
                "row_stride_elems": int(np.prod(shape[axis + 1:], dtype=np.int64)) if shape else 1}
        spec, info = softmax_tiling(chip, rows, d, self.itemsize, args)
        return aclOpExecutor("Softmax", [PreparedKernel(spec, _body(self, out, axis))], [self], [out], 0, info=info)
    return prepare("Softmax", build)


def aclnnSoftmax(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Softmax", workspace, workspaceSize, executor, stream)
