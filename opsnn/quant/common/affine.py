"""The quant family's vector kernel: y = f(x, scale, zero point) per element, the scale
and zero point a [1] or per-axis vector broadcast along ``axis``.

Host half (:func:`affine_tiling`): :func:`opsnn.base.vector_tiling.vector_tiling` over
elements (units), ``in_itemsize`` B in and ``out_itemsize`` B out per element, a 4 B
fp32 scratch per element, and the scale / zero-point vectors resident in UB
(``fixed_ub_bytes``, 32 B aligned). Kernel half (:func:`affine_spec`): the tile
program of :func:`opsnn.base.vector_tiling.vector_spec`; each block's first tile also
loads the scale / zero-point vectors (``first_tile_mte2_bytes``). Per element the
Vector unit makes :data:`VECTOR_PASSES` fp32 passes [A]: cast in to fp32, the
scale (Div / Mul), the zero point (Add / Sub) with the round, and the cast out
(Ascend C Cast supports the rounding modes; CAST_RINT is round half to even).

Numerics (:func:`quantize_values`, :func:`dequantize_values`) follow the ONNX
operator definitions, which the CANN formulas match for integer zero points:
quantize  y = saturate(rint(x / scale) + zero_point)   (rint: half to even)
dequantize y = (float32(x) - zero_point) * scale
"""
from __future__ import annotations

import numpy as np

from npu_sim import ChipConfig
from npu_sim.program import KernelSpec

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import VectorTilingData, vector_spec, vector_tiling

#: fp32 Vector passes per element: cast in, scale, zero point + round, cast out [A]
VECTOR_PASSES = 4
#: scratch bytes per element (the fp32 intermediate)
TMP_BYTES = 4

__all__ = ["VectorTilingData", "param_plan", "affine_tiling", "affine_spec", "quantize_values", "dequantize_values",
           "param_view", "expand_blocks", "VECTOR_PASSES"]


def param_plan(chip: ChipConfig, param_bytes: int, param_bytes_per_element: float) -> tuple[int, float]:
    """(bytes kept resident in UB, extra MTE2 bytes per element): the scale / zero-point
    vectors stay in UB while they take at most a quarter of it [A]; larger ones (a
    per-axis vector along a long axis) are streamed beside x, ``param_bytes_per_element``
    more per element."""
    if align_up(int(param_bytes), 32) <= chip.ub_bytes // 4:
        return int(param_bytes), 0.0
    return 0, float(param_bytes_per_element)


def affine_tiling(chip: ChipConfig, name: str, numel: int, in_itemsize: int, out_itemsize: int,
                  param_bytes: int, tiling_key: int = 0) -> TilingResult:
    """Tile ``numel`` elements over the AIVs and UB (``param_bytes``: the scale and
    zero-point vectors, kept in UB). Returns a :class:`TilingResult` (strategy
    "affine", key ``tiling_key``, no workspace) whose data is a
    :class:`VectorTilingData`. Raises AclnnError(561002) if the vectors leave no UB."""
    td = vector_tiling(chip, name, numel, in_itemsize, out_itemsize, tmp_bytes_per_unit=TMP_BYTES,
                       fixed_ub_bytes=align_up(int(param_bytes), 32))
    return TilingResult("affine", tiling_key, td.block_dim, 0, td, ("affine",))


def affine_spec(name: str, td: VectorTilingData, in_itemsize: int, out_itemsize: int, param_bytes: int,
                args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV kernel spec of an affine kernel tiled as ``td``: per UB tile MTE2 in,
    :data:`VECTOR_PASSES` fp32 passes, MTE3 out; each block's first tile also loads
    ``param_bytes`` of scale / zero point."""
    return vector_spec(name, td, in_itemsize, out_itemsize, VECTOR_PASSES * 4, tiling_key=tiling_key,
                       args=args, first_tile_mte2_bytes=int(param_bytes))


def param_view(v: np.ndarray | None, ndim: int, axis: int) -> np.ndarray | None:
    """A [1] or [C] vector shaped to broadcast along ``axis`` of an ``ndim``-D tensor
    (an array of x's rank, ndim > 1, is returned as it is)."""
    if v is None:
        return None
    v = np.asarray(v)
    if v.size == 1 or ndim == 0:
        return v.reshape(())
    if v.ndim == ndim and ndim > 1:
        return v   # already x's shape (a blocked scale after :func:`expand_blocks`)
    v = v.reshape(-1)
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def expand_blocks(v: np.ndarray | None, shape: tuple[int, ...], axis: int, block: int) -> np.ndarray | None:
    """A blocked scale / zero point (x's rank, ``ceil(shape[axis] / block)`` along
    ``axis``) repeated ``block`` times along ``axis`` and cut to x's ``shape``."""
    if v is None:
        return None
    full = np.repeat(np.asarray(v), block, axis=axis)
    return np.take(full, np.arange(shape[axis]), axis=axis)


def quantize_values(x: np.ndarray, scale: np.ndarray, zero_point, axis: int, out_dtype) -> np.ndarray:
    """saturate(rint(x / scale) + zero_point) in ``out_dtype`` (int8 / uint8 / int32);
    x / scale in float32 (fp16 / bf16 inputs are widened first)."""
    x = np.asarray(x).astype(np.float32)
    s = param_view(np.asarray(scale).astype(np.float32), x.ndim, axis)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = np.rint(x / s).astype(np.float64)   # +-inf for x / 0 saturate below; NaN (0 / 0, NaN x) gives 0
        if zero_point is not None:
            q = q + param_view(np.rint(np.asarray(zero_point, np.float64)), x.ndim, axis)
    info = np.iinfo(out_dtype)
    # clip in float64 before the integer cast, so values past int64 (1e20) saturate too
    return np.clip(np.nan_to_num(q, nan=0.0, posinf=info.max, neginf=info.min), info.min, info.max).astype(out_dtype)


def dequantize_values(x: np.ndarray, scale: np.ndarray, zero_point, axis: int) -> np.ndarray:
    """(float32(x) - zero_point) * scale, in float32 (the caller casts to out's dtype)."""
    x = np.asarray(x)
    d = x.astype(np.float32)
    if zero_point is not None:
        d = d - param_view(np.asarray(zero_point).astype(np.float32), x.ndim, axis)
    return d * param_view(np.asarray(scale).astype(np.float32), x.ndim, axis)
