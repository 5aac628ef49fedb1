"""Lowering of the opset-23 transformer ops onto the fused LLM kernels.

=================  ===================================================================
ONNX op            aclnn calls
=================  ===================================================================
RotaryEmbedding    the input copied to the output (aclnnCast, same dtype), then
(23)               aclnnApplyRotaryPosEmb in place on its [B, S, N, :rotary_dim] BSND
                   view (no key: a simulator extension), rotaryMode "interleave" for
                   ``interleaved=1``. cos/sin: rows picked by ``position_ids``
                   (aclnnEmbedding) when given, then each half-size row widened to the
                   rotary dim (repeated for the half form, each value twice for the
                   interleaved one) by an aclnnCast of a stride-0 view.
=================  ===================================================================

Input layouts: 4-D [B, N, S, H] (seen as BSND through strides) or 3-D [B, S, N*H]
with ``num_heads``.
"""
from __future__ import annotations

from .attrs import attr_int, bad
from .registry import register
from .tensors import cast_to, prepare, strided_view


def _wide_cache(ctx, node, cache, ids, b: int, s: int, half: int, interleaved: bool, what: str):
    """cos or sin as [B, S, 1, 2*half] (aclnnApplyRotaryPosEmb's full-width rows)."""
    base = f"{node.outputs[0]}__{what}"
    calls = []
    if ids is not None:
        if tuple(ids.shape) != (b, s):
            raise bad(node, f"position_ids shape {list(ids.shape)} must be [{b}, {s}]")
        if len(cache.shape) != 2 or cache.shape[1] != half:
            raise bad(node, f"{what}_cache shape {list(cache.shape)} must be [max_position, {half}]")
        rows = ctx.alloc(base + "_rows", (b, s, half), cache.dtype)
        calls.append(prepare(node, "aclnnEmbedding", cache.tensor, ids.tensor, rows.tensor))
    else:
        if tuple(cache.shape) != (b, s, half):
            raise bad(node, f"{what}_cache shape {list(cache.shape)} must be [{b}, {s}, {half}] without position_ids")
        rows = cache
    if interleaved:   # [B, S, half, 2]: each value twice
        v = strided_view(rows, base + "_bcast", (b, s, half, 2), (s * half, half, 1, 0))
    else:             # [B, S, 2, half]: the row twice
        v = strided_view(rows, base + "_bcast", (b, s, 2, half), (s * half, half, 0, 1))
    wide, cc = cast_to(ctx, node, v, cache.dtype, base + "_wide")
    calls.append(cc)
    return ctx.view(wide, base + "_bs1d", (b, s, 1, 2 * half)), calls


@register("RotaryEmbedding")
def lower_rotary_embedding(ctx, node, ins):
    x, cos_c, sin_c = ins[0], ins[1], ins[2]
    ids = ins[3] if len(ins) > 3 and ins[3] is not None else None
    interleaved = bool(attr_int(node, "interleaved", 0))
    if len(x.shape) == 4:
        b, n, s, h = (int(d) for d in x.shape)
        strides = (n * s * h, h, s * h, 1)           # [B, N, S, H] seen as [B, S, N, H]
    elif len(x.shape) == 3:
        b, s, hidden = (int(d) for d in x.shape)
        n = attr_int(node, "num_heads", 0)
        if n < 1 or hidden % n:
            raise bad(node, f"a 3-D input needs num_heads dividing the hidden size {hidden}, got {n}")
        h = hidden // n
        strides = (s * hidden, hidden, h, 1)
    else:
        raise bad(node, f"input must be 3-D or 4-D, got {list(x.shape)}")
    rot = attr_int(node, "rotary_embedding_dim", 0) or h
    if rot % 2 or not 0 < rot <= h:
        raise bad(node, f"rotary_embedding_dim {rot} must be even and at most the head size {h}")
    out, copy = cast_to(ctx, node, x, x.dtype, node.outputs[0])
    calls = [copy]
    q = strided_view(out, node.outputs[0] + "__bsnd", (b, s, n, rot), strides)
    cos, cc = _wide_cache(ctx, node, cos_c, ids, b, s, rot // 2, interleaved, "cos")
    sin, sc = _wide_cache(ctx, node, sin_c, ids, b, s, rot // 2, interleaved, "sin")
    calls += cc + sc
    calls.append(prepare(node, "aclnnApplyRotaryPosEmb", q.tensor, None, cos.tensor, sin.tensor, 1,
                         "interleave" if interleaved else "half"))
    return [out], calls
