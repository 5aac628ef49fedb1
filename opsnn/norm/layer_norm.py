"""aclnnLayerNorm: host half (checks, shape inference, strategy choice at prepare) and
kernel half (tile programs + numpy bodies). The row-norm tiling here is shared with
aclnnRmsNorm (``opsnn/norm/rms_norm.py``).

CANN prototype (aclnn_layer_norm.h; ops-nn docs/aclnnLayerNorm):
  aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weightOptional, biasOptional, eps, out,
                                 meanOutOptional, rstdOutOptional, workspaceSize, executor)
  aclnnLayerNorm(workspace, workspaceSize, executor, stream)

Formula: with ``input`` of shape [A1..Ai, R1..Rj] and normalizedShape = [R1..Rj],
  mean = E[x], rstd = 1 / sqrt(Var[x] + eps) (biased variance) over the R axes,
  out = (x - mean) * rstd * weight + bias.
Parameters (CANN order, doc behaviour):
  input: FLOAT, FLOAT16, BF16; ND; 1-8 dims. Non-contiguous views (any tensor here)
    go through the shared Contiguous copy first (a ViewCopy after, for outputs), as
    CANN's L0 does (``opsnn.common.contiguous``); the copies share the workspace.
  normalizedShape: aclIntArray (or int sequence) [R1..Rj], 1 <= j <= rank, equal to the
    trailing dims of ``input``.
  weightOptional / biasOptional: shape [R1..Rj]; dtype = input's or FLOAT; when both are
    given they share a dtype. None means 1 / 0.
  eps: a real number (double).
  out: input's dtype and shape.
  meanOutOptional / rstdOutOptional: input's dtype (the CANN doc; not fp32), shape
    [A1..Ai, 1..1] (j ones). None: not written.
Status: 161001 null input/normalizedShape/out (or a destroyed tensor); 161002 not a
tensor, dtype, rank, normalizedShape, shape or eps invalid; 561002 a forced strategy
that does not fit the chip. An empty ``input`` prepares an executor with no kernel
(strategy "empty"); meanOut/rstdOut are then left untouched.
Precision: fp16/bf16 are computed in fp32 and rounded once per output.

Strategy, chosen in phase 1 (recorded in ``executor.info["strategy"]``, in each kernel's
``args["strategy"]`` and its tiling key, so traces show it; phase 2 only runs the
kernels it finds). Axis handling: the R axes are trailing, so the input is a
[rows, d] matrix (rows = prod(A), d = prod(R)) and the normalised rows are contiguous.
  * ``fused`` (tiling key 0): one kernel; a unit is one row. UB holds, double
    buffered, the row in and the row out (+ mean/rstd), an fp32 work row (two for
    fp16/bf16), and weight/bias resident as fp32 (loaded once per block, charged on
    the block's first tile). Scale and shift are fused into the normalise pass. Vector
    passes per element: sum, x - mean, square, sum, * rstd, (* weight), (+ bias)
    (+ cast in/out for 16-bit).
  * ``multi_pass`` (tiling key 1): when a row (+ weight/bias) does not fit UB. Rows
    are cut into ``chunks_per_row`` chunks of ``chunk_elems`` elements (a multiple
    of 32 B; the largest that fits UB, or smaller when there are fewer rows than
    vector cores, so the chunks fill the cores -- never under 4 KiB of input). Two kernels on the stream: pass 1 (``args["pass"] = "stats"``) streams
    each chunk once, computes per-chunk mean and M2 and merges them (Chan et al.'s
    parallel variance) into per-row mean and rstd, written as fp32 [rows, 2] to the
    workspace (and to meanOut/rstdOut); pass 2 (``"apply"``) streams each chunk
    again, reads the row's mean/rstd from the workspace and writes the output. Pass 2
    walks the chunks chunk-major (chunk j of every row, then chunk j + 1), so each
    block loads a weight/bias chunk once per chunk index it spans (charged on its
    first tile, an upper bound) and keeps it in UB as fp32. The statistics (``rows * 8`` B rounded up to 32 B,
    after any contiguous copies in the workspace) are real: pass 2's body reads what
    pass 1's body wrote there. Blocks take
    contiguous ranges of chunks; a row split over two blocks is timed as if each
    streamed its part (the cross-core combine is not modelled), as in Softmax.
Both strategies agree to fp32 rounding (they accumulate the variance in a different
order); tests compare them on the same input.

Simulator extension (not in CANN): ``aclnnLayerNormGetWorkspaceSize(..., strategy=...)``
forces "fused" or "multi_pass" (benchmarks and tests); None (default) lets phase 1 choose.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from enum import IntEnum

import numpy as np

from npu_sim.program import BlockProgram, KernelSpec, Pipe, TileSpec

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid)
from ..base.dtypes import aclDataType
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.memview import tensor_view, write_out
from ..base.op import execute, prepare
from ..base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ..base.tiling import MIN_BLOCK_BYTES, align_up, ceil_div, vector_kernel
from ..common.contiguous import WorkspacePlan

OP = "aclnnLayerNorm"
MAX_RANK = 8
#: UB bytes for per-row scalars (sum, mean, rstd as fp32 blocks)
ROW_SCALAR_UB_BYTES = 64
#: workspace bytes per row in the multi-pass strategy: fp32 mean and rstd
STATS_BYTES_PER_ROW = 8


class RowNormTilingKey(IntEnum):
    """Tiling keys of the row-norm kernels (LayerNorm, RmsNorm)."""

    FUSED = 0
    MULTI_PASS = 1


STRATEGIES = ("fused", "multi_pass")


@dataclass(frozen=True)
class RowNormTilingData:
    """Host-side plan of a row normalisation (LayerNorm / RmsNorm).

    strategy: "fused" or "multi_pass". rows: rows normalised. row_elems: d, elements
    per row. chunk_elems / chunks_per_row: the chunking of a row (fused: d and 1).
    ub_bytes_needed_fused: UB one block needs to run the fused kernel (bytes).
    workspace_bytes: device workspace phase 2 must be given (bytes).
    """

    strategy: str
    rows: int
    row_elems: int
    chunk_elems: int
    chunks_per_row: int
    ub_bytes_needed_fused: int
    workspace_bytes: int


def _charge_first_tile(spec: KernelSpec, mte2_bytes: int, vector_bytes: int) -> None:
    """Add a once-per-block load (weight/bias: MTE2 bytes and their fp32 cast on
    VECTOR) to the first tile of every block's program."""
    if not mte2_bytes and not vector_bytes:
        return
    done: dict[int, BlockProgram] = {}
    blocks = []
    for prog in spec.blocks:
        if id(prog) not in done:
            first, rest = prog.tiles[0], prog.tiles[1:]
            stages = tuple(replace(s, nbytes=s.nbytes + mte2_bytes) if s.pipe is Pipe.MTE2 else
                           replace(s, vector_bytes=s.vector_bytes + vector_bytes) if s.pipe is Pipe.VECTOR else s
                           for s in first.stages)
            tiles = (TileSpec(stages, 1),) + ((TileSpec(first.stages, first.count - 1),) if first.count > 1
                                               else ()) + rest
            done[id(prog)] = BlockProgram(tiles)
        blocks.append(done[id(prog)])
    spec.blocks = tuple(blocks)


def row_norm_kernels(chip, name: str, rows: int, d: int, item: int, witem: int, n_affine: int,
                     stats_out_bytes_per_row: int, centre: bool, strategy: str | None,
                     args: dict) -> tuple[list[KernelSpec], RowNormTilingData]:
    """Plan a row normalisation of a [rows, d] matrix and build its kernel specs.

    item: input/output itemsize (bytes); witem: weight/bias itemsize (bytes, 0 if
    none); n_affine: how many of weight/bias are given (0-2); stats_out_bytes_per_row:
    bytes of mean/rstd outputs written per row; centre: LayerNorm (subtract the mean)
    or RmsNorm (no mean). ``strategy`` None chooses (fused if it fits UB); "fused" /
    "multi_pass" force one (561002 if fused cannot fit). Returns the kernels in launch
    order and the tiling data. Vector work is counted as fp32 operand bytes per pass.
    """
    cast = 1 if item != 4 else 0
    wcast = 1 if (witem and witem != 4) else 0
    tmp_per_elem = 4 * (1 + cast)
    # --- fused: one row per unit; UB rows are padded to whole 32 B blocks
    d_ub = align_up(d, max(1, 32 // item))
    fixed = ROW_SCALAR_UB_BYTES + n_affine * align_up(4 * d, 32)
    in_row, out_row = d * item, d * item + stats_out_bytes_per_row
    need_fused = 2 * (2 * d_ub * item + stats_out_bytes_per_row) + d_ub * tmp_per_elem + fixed
    fits = need_fused <= chip.ub_bytes
    if strategy is None:
        strategy = "fused" if fits else "multi_pass"
    elif strategy not in STRATEGIES:
        raise invalid(f"aclnn{name}", f"strategy must be one of {', '.join(STRATEGIES)} or None, got {strategy!r}")
    if strategy == "fused":
        if not fits:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                             f"aclnn{name}: fused strategy needs {need_fused} B of UB for a row of {d} elements "
                             f"but {chip.name} has {chip.ub_bytes} B")
        passes = (5 if centre else 3) + n_affine + 2 * cast
        spec, _ = vector_kernel(chip, name, rows, in_row, out_row, passes * d * 4, tmp_bytes_per_unit=d * tmp_per_elem,
                                fixed_ub_bytes=fixed, tiling_key=int(RowNormTilingKey.FUSED),
                                args=dict(args, strategy="fused", row_elems=d,
                                          bytes=rows * (in_row + out_row) + n_affine * d * witem))
        _charge_first_tile(spec, n_affine * d * witem, n_affine * d * 4 * wcast)
        td = RowNormTilingData("fused", rows, d, d, 1, need_fused, 0)
        return [spec], td
    # --- multi-pass: chunks of c elements, stats pass then apply pass
    align = max(1, 32 // min(item, witem or item))
    # the apply pass holds the most per element: x in and y out (double buffered), the
    # fp32 work row(s), and the chunk's weight/bias resident as fp32
    # (+ the per-row statistics each pass reads or writes, double buffered)
    per_elem = 2 * (item + item) + tmp_per_elem + 4 * n_affine
    reserve = ROW_SCALAR_UB_BYTES + 2 * (STATS_BYTES_PER_ROW + stats_out_bytes_per_row)
    c_max = (chip.ub_bytes - reserve) // per_elem // align * align
    if c_max < align:  # pragma: no cover - a chip with under ~1 KiB of UB
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"aclnn{name}: UB of {chip.ub_bytes} B is too small")
    # few rows: cut rows finer so the chunks fill the vector cores (split-D), but
    # keep each chunk at least MIN_BLOCK_BYTES of input
    c_target = c_max
    if rows < chip.vector_core_count:
        c_fill = align_up(ceil_div(d, ceil_div(chip.vector_core_count, rows)), align)
        c_target = min(c_max, max(c_fill, align_up(MIN_BLOCK_BYTES // item, align)))
    cpr = ceil_div(d, c_target)
    c = min(align_up(ceil_div(d, cpr), align), c_max)
    units = rows * cpr
    avg = d / cpr
    ws = align_up(rows * STATS_BYTES_PER_ROW, 32)
    common = dict(args, strategy="multi_pass", row_elems=d, chunk_elems=c, chunks_per_row=cpr)
    stats_passes = (4 if centre else 2) + cast
    stats, _ = vector_kernel(chip, name, units, avg * item, (STATS_BYTES_PER_ROW + stats_out_bytes_per_row) / cpr,
                             stats_passes * avg * 4, tmp_bytes_per_unit=c * tmp_per_elem,
                             fixed_ub_bytes=ROW_SCALAR_UB_BYTES, tiling_key=int(RowNormTilingKey.MULTI_PASS),
                             args=dict(common, **{"pass": "stats"},
                                       bytes=rows * (d * item + STATS_BYTES_PER_ROW + stats_out_bytes_per_row)))
    # apply: units in chunk-major order (chunk j of every row, then chunk j+1), so a
    # block loads the weight/bias chunk once per chunk index it touches and keeps it
    apply_passes = (2 if centre else 1) + n_affine + 2 * cast
    apply, atd = vector_kernel(chip, name, units, avg * item + STATS_BYTES_PER_ROW, avg * item,
                               apply_passes * avg * 4, tmp_bytes_per_unit=c * tmp_per_elem,
                               fixed_ub_bytes=ROW_SCALAR_UB_BYTES + n_affine * 4 * c,
                               tiling_key=int(RowNormTilingKey.MULTI_PASS),
                               args=dict(common, **{"pass": "apply"}, unit_order="chunk_major",
                                         bytes=rows * (2 * d * item + STATS_BYTES_PER_ROW) + n_affine * d * witem))
    touched = min(cpr, ceil_div(atd.per_block, rows) + 1)  # chunk indices a block spans, at most
    _charge_first_tile(apply, touched * n_affine * c * witem, touched * n_affine * c * 4 * wcast)
    td = RowNormTilingData("multi_pass", rows, d, c, cpr, need_fused, ws)
    return [stats, apply], td


def chunked_moments(x: np.ndarray, c: int, centre: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-row statistics of fp32 ``x`` [rows, d] streamed in chunks of ``c`` columns,
    as the multi-pass stats kernel computes them (fp32 throughout).

    centre=True: returns (mean, M2) merged chunk by chunk (Chan, Golub, LeVeque's
    pairwise update). centre=False: returns (zeros, sum of squares)."""
    rows, d = x.shape
    n = 0
    mean = np.zeros(rows, np.float32)
    acc = np.zeros(rows, np.float32)
    for j in range(0, d, c):
        xc = x[:, j:j + c]
        nb = xc.shape[1]
        if not centre:
            acc += np.einsum("ij,ij->i", xc, xc, dtype=np.float32)
            continue
        mb = xc.sum(axis=1, dtype=np.float32) / np.float32(nb)
        diff = xc - mb[:, None]
        m2b = np.einsum("ij,ij->i", diff, diff, dtype=np.float32)
        tot = n + nb
        delta = mb - mean
        mean = mean + delta * np.float32(nb / tot)
        acc = acc + m2b + delta * delta * np.float32(n * nb / tot)
        n = tot
    return mean, acc


# ------------------------------------------------------------------------- bodies
# Each factory takes ``refs``: name -> TensorRef (opsnn.common.contiguous) for "input",
# "out" and whichever of "weight", "bias", "mean", "rstd" exist -- the caller's tensor
# in its slot, or a contiguous copy / staging buffer in the workspace -- and the byte
# offset of the per-row statistics in the workspace (multi-pass only).
def _read(mem, addrs, ws, ref, shape=None):
    a = tensor_view(mem, ref.addr(addrs, ws), ref.meta).astype(np.float32)
    return a if shape is None else a.reshape(shape)


def _write(mem, addrs, ws, ref, value):
    write_out(mem, ref.addr(addrs, ws), ref.meta, value.reshape(ref.meta.view_shape))


def _affine(mem, addrs, ws, refs, d):
    w = _read(mem, addrs, ws, refs["weight"], d) if "weight" in refs else None
    b = _read(mem, addrs, ws, refs["bias"], d) if "bias" in refs else None
    return w, b


def _normalise(x, mean, rstd, w, b):
    y = (x - mean[:, None]) * rstd[:, None]
    if w is not None:
        y *= w
    if b is not None:
        y += b
    return y


def _write_stats(mem, addrs, ws, refs, mean, rstd):
    if "mean" in refs:
        _write(mem, addrs, ws, refs["mean"], mean)
    if "rstd" in refs:
        _write(mem, addrs, ws, refs["rstd"], rstd)


def _fused_body(refs, rows, d, eps):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["input"], (rows, d))
            w, b = _affine(mem, addrs, ws, refs, d)
            mean = x.sum(axis=1, dtype=np.float32) / np.float32(d)
            diff = x - mean[:, None]
            var = np.einsum("ij,ij->i", diff, diff, dtype=np.float32) / np.float32(d)
            rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
            _write(mem, addrs, ws, refs["out"], _normalise(x, mean, rstd, w, b))
            _write_stats(mem, addrs, ws, refs, mean, rstd)
        return body
    return make


def _stats_body(refs, rows, d, c, eps, stats_off):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["input"], (rows, d))
            mean, m2 = chunked_moments(x, c, centre=True)
            rstd = np.float32(1) / np.sqrt(m2 / np.float32(d) + np.float32(eps))
            mem.array(ws + stats_off, (rows, 2), np.float32)[...] = np.stack([mean, rstd], axis=1)
            _write_stats(mem, addrs, ws, refs, mean, rstd)
        return body
    return make


def _apply_body(refs, rows, d, stats_off):
    def make(addrs, ws):
        def body(mem):
            x = _read(mem, addrs, ws, refs["input"], (rows, d))
            w, b = _affine(mem, addrs, ws, refs, d)
            stats = np.array(mem.array(ws + stats_off, (rows, 2), np.float32))
            _write(mem, addrs, ws, refs["out"], _normalise(x, stats[:, 0], stats[:, 1], w, b))
        return body
    return make


def plan_refs(plan, named_inputs, named_outputs) -> dict:
    """TensorRefs for the present tensors, slots numbered inputs first then outputs;
    non-contiguous views get a Contiguous copy / a ViewCopy through ``plan``."""
    refs = {}
    slot = 0
    for name, t in named_inputs:
        if t is not None:
            refs[name] = plan.input(t, slot)
            slot += 1
    for name, t in named_outputs:
        if t is not None:
            refs[name[0]] = plan.output(t, slot, name[1])
            slot += 1
    return refs


# --------------------------------------------------------------------------- host
def int_list(op: str, name: str, value) -> list[int]:
    """An aclIntArray / int sequence as a list of ints; 161002 otherwise."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {type(value).__name__}")
    out = []
    for v in value:
        if isinstance(v, (bool, np.bool_)) or not hasattr(v, "__index__"):
            raise invalid(op, f"{name} must hold integers, got {v!r}")
        out.append(int(v))
    return out


def check_eps(op: str, name: str, eps) -> float:
    """``eps`` as a float; 161002 unless it is a finite real number."""
    if isinstance(eps, (bool, np.bool_)):
        raise invalid(op, f"{name} must be a number, got {eps!r}")
    try:
        v = float(eps)
    except (TypeError, ValueError):
        raise invalid(op, f"{name} must be a number, got {eps!r}") from None
    if not math.isfinite(v):
        raise invalid(op, f"{name} must be finite, got {eps!r}")
    return v


def _build(chip, input, normalizedShape, weight, bias, eps, out, meanOut, rstdOut, strategy):  # noqa: A002,N803
    # 1. null pointers (required: input, normalizedShape, out); destroyed optional tensors
    check_not_null(OP, input=input, normalizedShape=normalizedShape, out=out)
    opt = {k: t for k, t in (("weightOptional", weight), ("biasOptional", bias), ("meanOutOptional", meanOut),
                             ("rstdOutOptional", rstdOut)) if t is not None}
    check_not_null(OP, **opt)
    check_tensor_type(OP, input=input, out=out, **opt)
    # 2. dtypes
    check_dtype(OP, "input", input, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (input.data_type,))
    for name in ("weightOptional", "biasOptional"):
        if name in opt:
            check_dtype(OP, name, opt[name], tuple(dict.fromkeys((input.data_type, aclDataType.ACL_FLOAT))))
    if weight is not None and bias is not None and weight.data_type != bias.data_type:
        raise invalid(OP, f"biasOptional dtype {bias.data_type.name} differs from weightOptional "
                          f"{weight.data_type.name}")
    for name in ("meanOutOptional", "rstdOutOptional"):
        if name in opt:
            check_dtype(OP, name, opt[name], (input.data_type,))
    # 3. shapes and attributes
    shape = tuple(input.view_shape)
    if not 1 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"input must be 1-D to {MAX_RANK}-D, got shape {list(shape)}")
    ns = int_list(OP, "normalizedShape", normalizedShape)
    if not ns:
        raise invalid(OP, "normalizedShape must not be empty")
    if len(ns) > len(shape):
        raise invalid(OP, f"normalizedShape {ns} has more dims than input shape {list(shape)}")
    j = len(ns)
    if list(shape[-j:]) != ns:
        raise invalid(OP, f"normalizedShape {ns} does not match the trailing dims of input shape {list(shape)}")
    for name in ("weightOptional", "biasOptional"):
        if name in opt:
            check_shape(OP, name, opt[name], tuple(ns))
    check_shape(OP, "out", out, shape)
    stats_shape = shape[:-j] + (1,) * j
    for name in ("meanOutOptional", "rstdOutOptional"):
        if name in opt:
            check_shape(OP, name, opt[name], stats_shape)
    eps_f = check_eps(OP, "eps", eps)
    if strategy is not None and strategy not in STRATEGIES:
        raise invalid(OP, f"strategy must be one of {', '.join(STRATEGIES)} or None, got {strategy!r}")

    inputs = [input] + [t for t in (weight, bias) if t is not None]
    outputs = [out] + [t for t in (meanOut, rstdOut) if t is not None]
    if input.numel == 0:
        return aclOpExecutor("LayerNorm", [], inputs, outputs, 0, info={"strategy": "empty"})
    d = int(np.prod(ns, dtype=np.int64))
    rows = input.numel // d
    n_affine = (weight is not None) + (bias is not None)
    witem = (weight if weight is not None else bias).itemsize if n_affine else 0
    n_stats = (meanOut is not None) + (rstdOut is not None)
    args = {"shapes": [list(shape)], "dtype": input.dtype_name, "normalizedShape": ns, "eps": eps_f,
            "affine": "fused" if n_affine else "none"}
    specs, td = row_norm_kernels(chip, "LayerNorm", rows, d, input.itemsize, witem, n_affine,
                                 n_stats * input.itemsize, True, strategy, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("input", input), ("weight", weight), ("bias", bias)),
                     ((("out", "out"), out), (("mean", "meanOutOptional"), meanOut),
                      (("rstd", "rstdOutOptional"), rstdOut)))
    if td.strategy == "fused":
        main = [PreparedKernel(specs[0], _fused_body(refs, rows, d, eps_f))]
    else:
        off = plan.alloc(td.workspace_bytes)
        main = [PreparedKernel(specs[0], _stats_body(refs, rows, d, td.chunk_elems, eps_f, off)),
                PreparedKernel(specs[1], _apply_body(refs, rows, d, off))]
    kernels = plan.kernels(main)
    info = dict(asdict(td), affine=args["affine"], tiling_key=specs[0].tiling_key,
                tiling=[s.args["tiling"] for s in specs], workspace_bytes=plan.size,
                copies=[k.spec.name for k in kernels if all(k is not m for m in main)])
    return aclOpExecutor("LayerNorm", kernels, inputs, outputs, plan.size, info=info)


def aclnnLayerNormGetWorkspaceSize(input, normalizedShape, weightOptional, biasOptional, eps, out,  # noqa: N802,A002
                                   meanOutOptional=None, rstdOutOptional=None, *, strategy=None):  # noqa: N803
    """Phase 1 of LayerNorm (see the module doc for parameters, dtypes and errors).

    Returns ``(workspace_size, executor, status)``; the workspace is 0 for the fused
    strategy and ``rows * 8`` B (rounded to 32 B) for the multi-pass one.
    ``strategy`` (keyword-only, a simulator extension): None, "fused" or "multi_pass".
    """
    return prepare("LayerNorm", lambda chip: _build(chip, input, normalizedShape, weightOptional, biasOptional, eps,
                                                    out, meanOutOptional, rstdOutOptional, strategy))


def aclnnLayerNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of LayerNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("LayerNorm", workspace, workspaceSize, executor, stream)


# ------------------------------------------------------------------------- golden
def layer_norm_golden(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """float64 reference: returns (out, mean, rstd); mean/rstd shaped [A..., 1...]."""
    x = np.asarray(x, dtype=np.float64)
    j = len(normalized_shape)
    axes = tuple(range(x.ndim - j, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    y = (x - mean) * rstd
    if weight is not None:
        y = y * np.asarray(weight, dtype=np.float64)
    if bias is not None:
        y = y + np.asarray(bias, dtype=np.float64)
    return y, mean, rstd
