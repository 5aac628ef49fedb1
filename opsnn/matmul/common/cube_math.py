"""cubeMathType: which operand type the Cube computes in, for every cube operator.

aclnn cube operators (aclnnMatmul, aclnnMm, aclnnBatchMatMul, aclnnAddmm,
aclnnConvolution, ...) take an ``int8_t cubeMathType`` that says how far the Cube
may lower the precision of its inputs. One function, :func:`cube_compute_dtype`,
turns (input dtype, cubeMathType) into the :class:`npu_sim.program.CubeDtype` the
tile program's CUBE stages carry, so every operator charges the same Cube rate for
the same choice.

Semantics (CANN aclnnMatmul / aclnnMm docs, CANN 8.0.RC1, "cubeMathType"; the
behaviour listed for Atlas A2 training products, which the 910B presets model):

=====  ==========================  ==========================================
value  name                        a FLOAT (fp32) input computes in
=====  ==========================  ==========================================
0      KEEP_DTYPE                  FLOAT32 (the fp32 Cube rate)
1      ALLOW_FP32_DOWN_PRECISION   HFLOAT32 on Atlas A2 (FLOAT16 only on the
                                   older Atlas training/inference products,
                                   which have no HF32 mode)
2      USE_FP16                    FLOAT16
3      USE_HF32                    HFLOAT32
=====  ==========================  ==========================================

The docs describe every conversion for FLOAT inputs only: FLOAT16, BFLOAT16 and INT8
inputs compute in their own type under every cubeMathType. Which (dtype,
cubeMathType) pairs an operator accepts (Matmul rejects BF16 under 2 and non-FLOAT
under 3 with 161002) is the operator's check, not this mapping.

Why HF32 for 1: aclnnConvolution's doc says FLOAT is cast to FLOAT16 under 1, but
it says so of the Atlas training products, whose Cube has no fp32 path; the Matmul
docs give both cases and name HFLOAT32 for Atlas A2. So a conv's own mapping that
times fp32 under 1 and 3 at the fp16 rate models the older products, not the 910B.
"""
from __future__ import annotations

from enum import IntEnum

import numpy as np

from npu_sim.program import CubeDtype

from ...base.dtypes import dtype_name


class CubeMathType(IntEnum):
    """aclnn's cubeMathType values (CANN names)."""

    KEEP_DTYPE = 0
    ALLOW_FP32_DOWN_PRECISION = 1
    USE_FP16 = 2
    USE_HF32 = 3


#: the Cube's compute type of each input dtype name that keeps its type
_OWN_TYPE = {"float16": CubeDtype.FLOAT16, "bfloat16": CubeDtype.BFLOAT16, "int8": CubeDtype.INT8,
             "float32": CubeDtype.FLOAT32}
#: what a FLOAT input computes in under each cubeMathType (module table)
_FLOAT32_UNDER = {CubeMathType.KEEP_DTYPE: CubeDtype.FLOAT32, CubeMathType.ALLOW_FP32_DOWN_PRECISION: CubeDtype.HF32,
                  CubeMathType.USE_FP16: CubeDtype.FLOAT16, CubeMathType.USE_HF32: CubeDtype.HF32}


def cube_compute_dtype(dtype, cubeMathType: int) -> CubeDtype:  # noqa: N803 (CANN spelling)
    """The operand type the Cube computes in (module table).

    Args:
        dtype: the input dtype, as a name ("float32", "float16", "bfloat16", "int8";
            what ``aclTensor.dtype_name`` gives) or an ``aclDataType`` code.
        cubeMathType: 0..3 (:class:`CubeMathType`).

    Returns:
        a :class:`~npu_sim.program.CubeDtype` (a ``str``: usable as ``Stage.dtype``
        and by ``ChipConfig.cube_macs_per_cycle``).

    Raises:
        ValueError: cubeMathType outside 0..3 (bools included), or a dtype the Cube
            cannot take.
    """
    if isinstance(cubeMathType, bool) or cubeMathType not in tuple(CubeMathType):
        raise ValueError(f"cubeMathType must be 0..3, got {cubeMathType!r}")
    name = dtype if isinstance(dtype, str) else dtype_name(int(dtype))
    own = _OWN_TYPE.get(name)
    if own is None:
        raise ValueError(f"the Cube computes in float16, bfloat16, int8 or float32 inputs, not {name!r}")
    if own is CubeDtype.FLOAT32:
        return _FLOAT32_UNDER[CubeMathType(cubeMathType)]
    return own


def compute_dtype_name(cube_dtype: CubeDtype) -> str:
    """CANN's name of a compute type, as traces and ``executor.info`` record it:
    "hfloat32" for HF32 (CANN's HFLOAT32), else the dtype name."""
    cd = CubeDtype(cube_dtype)
    return "hfloat32" if cd is CubeDtype.HF32 else cd.value


#: explicit mantissa bits HF32 keeps (assumption: the Ascend C docs say fp32 data is
#: rounded to hf32, nearest-even by default, without giving the width; 10 bits, as
#: TF32, is assumed)
HF32_MANTISSA_BITS = 10


def round_to_hf32(x: np.ndarray) -> np.ndarray:
    """fp32 values rounded to nearest-even HF32 (HF32_MANTISSA_BITS explicit mantissa
    bits, fp32's exponent), returned as fp32. inf/NaN pass through."""
    x = np.asarray(x, dtype=np.float32)
    drop = 23 - HF32_MANTISSA_BITS
    bits = x.view(np.uint32).astype(np.uint64)
    lsb = (bits >> drop) & 1
    rounded = ((bits + (1 << (drop - 1)) - 1 + lsb) >> drop) << drop
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isfinite(x), out, x)


def round_operand(x: np.ndarray, compute: CubeDtype | str | None) -> np.ndarray:
    """An fp32 operand as the Cube sees it when it computes in ``compute``: rounded
    through fp16 for FLOAT16, to HF32 for HF32 (``round_to_hf32``), unchanged
    otherwise (its own type, or None). Returns float32 for the two roundings."""
    if compute is None:
        return x
    c = CubeDtype("hf32" if compute == "hfloat32" else compute)
    if c is CubeDtype.FLOAT16:
        return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)
    if c is CubeDtype.HF32:
        return round_to_hf32(x)
    return x


__all__ = ["CubeMathType", "cube_compute_dtype", "compute_dtype_name", "round_to_hf32", "round_operand",
           "HF32_MANTISSA_BITS"]
