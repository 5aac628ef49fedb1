"""ApplyRotaryPosEmb shape inference: in place, so queryRef and keyRef keep their
shapes and dtypes; cos/sin must broadcast to [B, S, 1, D] (layout 1, BSND)."""
from __future__ import annotations

#: CANN's layout codes: 1 = BSND (the only one aclnnApplyRotaryPosEmb documents)
LAYOUT_BSND = 1


def cos_shape_ok(cos_shape, q_shape) -> bool:
    """True when ``cos_shape`` [b, s, 1, D] broadcasts to q [B, S, N, D] with b in (1, B),
    s in (1, S) and the same D."""
    if len(cos_shape) != 4 or len(q_shape) != 4:
        return False
    b, s, n, d = cos_shape
    return b in (1, q_shape[0]) and s in (1, q_shape[1]) and n == 1 and d == q_shape[3]


def infer_shape(q_shape, q_dtype, k_shape=None, k_dtype=None):
    """[(queryRef shape, dtype), (keyRef shape, dtype)]: unchanged (in place)."""
    out = [(tuple(q_shape), q_dtype)]
    if k_shape is not None:
        out.append((tuple(k_shape), k_dtype))
    return out
