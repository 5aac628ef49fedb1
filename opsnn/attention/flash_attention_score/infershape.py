"""FlashAttentionScore shape inference: output shapes and dtypes only (plus the layout
helpers); the checks with status codes are in ``op_api.py``."""
from __future__ import annotations

from ...base.dtypes import aclDataType

#: inputLayout values this simulator implements (CANN's TND, varlen, is not modelled)
LAYOUTS = ("BNSD", "BSND", "BSH", "SBH")


def layout_dims(shape, layout: str, heads: int | None = None) -> tuple[int, int, int, int]:
    """(B, N, S, D) of a tensor of ``shape`` in ``layout``; ``heads`` is N for BSH/SBH
    (H = N * D)."""
    if layout == "BNSD":
        return shape[0], shape[1], shape[2], shape[3]
    if layout == "BSND":
        return shape[0], shape[2], shape[1], shape[3]
    b, s = (shape[0], shape[1]) if layout == "BSH" else (shape[1], shape[0])
    return b, heads, s, shape[2] // heads


def layout_shape(layout: str, b: int, n: int, s: int, d: int) -> tuple[int, ...]:
    """The shape of a [B, N, S, D] tensor stored in ``layout``."""
    return {"BNSD": (b, n, s, d), "BSND": (b, s, n, d), "BSH": (b, s, n * d), "SBH": (s, b, n * d)}[layout]


def infer_shape(query_shape, query_dtype, key_shape, value_shape, head_num: int, input_layout: str):
    """[softmaxMaxOut, softmaxSumOut, attentionOutOut] as (shape, dtype) pairs: the row
    statistics FLOAT [B, N, Sq, 8]; the output in query's layout and dtype with value's
    head dim (BSH/SBH: N_kv = key's H / D, Dv = value's H / N_kv)."""
    b, n, s_q, d = layout_dims(query_shape, input_layout, head_num)
    if input_layout in ("BSH", "SBH"):
        dv = value_shape[2] // (key_shape[2] // d)
    else:
        dv = value_shape[3]
    stat = ((b, n, s_q, 8), aclDataType.ACL_FLOAT)
    return [stat, stat, (layout_shape(input_layout, b, n, s_q, dv), query_dtype)]
