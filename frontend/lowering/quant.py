"""Lowering of the ONNX quantization ops onto the quant family and the int8 Cube.

=====================  ==================================================================
ONNX op                lowered to
=====================  ==================================================================
QuantizeLinear         aclnnQuantize (per tensor or per axis; int8 / uint8 / int32 out);
                       with ``block_size`` (opset 21) aclnnQuantizeBlock
DequantizeLinear       aclnnDequantizeLinear (npu-sim's entry point; out in the scale's
                       dtype, or ``output_dtype``); with ``block_size`` aclnnDequantizeLinearBlock
DynamicQuantizeLinear  aclnnDynamicQuantizeLinear (two vector kernels)
MatMulInteger          aclnnQuantMatmulV4 with an INT32 out (B constant)
QLinearMatMul          aclnnQuantMatmulV4, FixPipe requant to int8 (B constant)
FusedQuantMatMul       the node :mod:`frontend.passes.dequant` makes from DQ -> MatMul -> Q
=====================  ==================================================================

The Cube multiplies int8 x int8 only (CANN's QuantMatmul takes INT8 x1/x2), so zero
points and uint8 operands are folded the way a graph compiler does at prepare time:
the constant B becomes B - zb (refused when that leaves int8), an int8 A's zero point
becomes an int32 bias ``-za * colsum(B - zb)`` that FixPipe adds before the scale, and
a uint8 A is first shifted to int8 on the device (A - 128: Cast to int16, Adds, Cast;
the 128 joins the bias). A uint8 output is requantized to int8 with the offset
``zy - 128`` and shifted back (three more kernels). A per-row A zero point (MatMulInteger
allows one) is refused: it would need a row term FixPipe cannot add. float8 / int4
types are refused (dtypes npu-sim does not have).
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, bad
from .registry import register
from .tensors import DTensor, cast_to, node_acl_dtype, prepare

T = opsnn.aclDataType
_ONNX_INT = {2: np.uint8, 3: np.int8, 5: np.int16, 4: np.uint16, 6: np.int32}


def _vec(ctx, node: Node, t: DTensor | None, what: str) -> DTensor | None:
    """A 0-D or 1-D scale / zero point as a 1-D tensor (a view of the same memory)."""
    if t is None:
        return None
    if len(t.shape) > 1:
        raise bad(node, f"{what} of shape {list(t.shape)}: blocked quantization is not supported")
    return ctx.view(t, f"{node.outputs[0]}__{what}_1d", (max(int(np.prod(t.shape)), 1),)) if not t.shape else t


def _block(node: Node) -> int:
    """The opset-21 ``block_size`` attribute (0: per tensor / per axis)."""
    b = attr_int(node, "block_size", 0)
    if b < 0:
        raise bad(node, f"block_size {b} must be >= 0")
    return b


@register("QuantizeLinear")
def lower_quantize_linear(ctx, node: Node, ins):
    blk = _block(node)
    x, s = ins[0], ins[1]
    z = ins[2] if len(ins) > 2 else None
    if z is not None:
        out_dtype = z.dtype
    else:
        od = attr_int(node, "output_dtype", 0)
        if od and od not in _ONNX_INT:
            raise bad(node, f"output_dtype {od} is not an integer type npu-sim has")
        out_dtype = np.dtype(_ONNX_INT[od]) if od else np.dtype(np.uint8)
    axis = attr_int(node, "axis", 1) if x.shape else 0
    out = ctx.alloc(node.outputs[0], x.shape, out_dtype)
    pre, post = [], []
    if out_dtype == np.int16:
        # aclnnQuantize outputs INT8 / UINT8 / INT32 only (and takes no INT16 zero point):
        # quantize to int32, clamp to int16's range, cast (exact: the saturation is the clamp)
        name = node.outputs[0]
        if z is not None:
            z, zc = cast_to(ctx, node, z, np.int32, name + "__zp_i32")
            pre.append(zc)
        final, out = out, ctx.alloc(name + "__q_i32", x.shape, np.int32)
        clamped = ctx.alloc(name + "__q_i32_sat", x.shape, np.int32)
        i64 = T.ACL_INT64
        post = [prepare(node, "aclnnClamp", out.tensor, opsnn.aclCreateScalar(-32768, i64),
                        opsnn.aclCreateScalar(32767, i64), clamped.tensor),
                prepare(node, "aclnnCast", clamped.tensor, T.ACL_INT16, final.tensor)]
    else:
        final = out
    if blk:
        call = prepare(node, "aclnnQuantizeBlock", x.tensor, s.tensor, z and z.tensor,
                       node_acl_dtype(node, out.dtype), axis, blk, out.tensor)
        return [final], pre + [call] + post
    xin = ctx.view(x, node.outputs[0] + "__x_1d", (1,)) if not x.shape else x
    oin = ctx.view(out, out.name + "__y_1d", (1,)) if not x.shape else out
    call = prepare(node, "aclnnQuantize", xin.tensor, _vec(ctx, node, s, "scale").tensor,
                   z and _vec(ctx, node, z, "zero_point").tensor, node_acl_dtype(node, out.dtype), axis, oin.tensor)
    return [final], pre + [call] + post


@register("DequantizeLinear")
def lower_dequantize_linear(ctx, node: Node, ins):
    blk = _block(node)
    x, s = ins[0], ins[1]
    z = ins[2] if len(ins) > 2 else None
    od = attr_int(node, "output_dtype", 0)
    out_dtype = {1: np.float32, 10: np.float16}.get(od, s.dtype) if od else s.dtype
    axis = attr_int(node, "axis", 1) if x.shape else 0
    out = ctx.alloc(node.outputs[0], x.shape, out_dtype)
    if blk:
        call = prepare(node, "aclnnDequantizeLinearBlock", x.tensor, s.tensor, z and z.tensor, axis, blk, out.tensor)
        return [out], [call]
    xin = ctx.view(x, node.outputs[0] + "__x_1d", (1,)) if not x.shape else x
    oin = ctx.view(out, node.outputs[0] + "__y_1d", (1,)) if not x.shape else out
    call = prepare(node, "aclnnDequantizeLinear", xin.tensor, _vec(ctx, node, s, "scale").tensor,
                   z and _vec(ctx, node, z, "zero_point").tensor, axis, oin.tensor)
    return [out], [call]


@register("DynamicQuantizeLinear")
def lower_dynamic_quantize_linear(ctx, node: Node, ins):
    x = ins[0]
    names = list(node.outputs) + [""] * (3 - len(node.outputs))
    y = ctx.alloc(names[0] or node.name + "__y", x.shape, np.uint8)
    ys = ctx.alloc(names[1] or node.name + "__y_scale", (), np.float32)
    yz = ctx.alloc(names[2] or node.name + "__y_zero_point", (), np.uint8)
    call = prepare(node, "aclnnDynamicQuantizeLinear", x.tensor, y.tensor, ys.tensor, yz.tensor)
    return [y, ys, yz], [call]


# ---- the int8 Cube ------------------------------------------------------------------------

def _const(ctx, node: Node, i: int, what: str, required: bool = True):
    name = node.inputs[i] if len(node.inputs) > i else ""
    v = ctx.const(name) if name else None
    if v is None and required:
        raise bad(node, f"{what} must be a constant (exported models hold it as an initializer)")
    return None if v is None else np.asarray(v)


def _shift(ctx, node: Node, t: DTensor, delta: int, out_dtype, name: str):
    """``t + delta`` into a new tensor ``name`` of ``out_dtype`` on the device: Cast to
    int16, Adds, Cast (three vector kernels; the values fit ``out_dtype`` by construction)."""
    wide = ctx.alloc(name + "__i16", t.shape, np.int16)
    moved = ctx.alloc(name + "__moved", t.shape, np.int16)
    out = ctx.alloc(name, t.shape, out_dtype)
    i64 = T.ACL_INT64
    calls = [prepare(node, "aclnnCast", t.tensor, T.ACL_INT16, wide.tensor),
             prepare(node, "aclnnAdds", wide.tensor, opsnn.aclCreateScalar(int(delta), i64),
                     opsnn.aclCreateScalar(1, i64), moved.tensor),
             prepare(node, "aclnnCast", moved.tensor, node_acl_dtype(node, out_dtype), out.tensor)]
    return out, calls


def _int8_weight(node: Node, b: np.ndarray, zb) -> np.ndarray:
    """B - zb (zb per tensor or per column) as int8 [..., K, N]; where it leaves int8
    (|values| up to 255), as [..., 2K, N]: the rows of W1 = clip(B - zb) then of
    W2 = (B - zb) - W1, both int8, so that [A, A] @ [W1; W2] = A @ (B - zb)
    (:func:`quant_gemm` concatenates A with itself). Refused beyond that."""
    w = b.astype(np.int64)
    if zb is not None:
        z = np.asarray(zb, np.int64).reshape(-1)
        w = w - (z[0] if z.size == 1 else z)
    if w.min(initial=0) >= -128 and w.max(initial=0) <= 127:
        return w.astype(np.int8)
    w1 = np.clip(w, -128, 127)
    w2 = w - w1
    if w2.min(initial=0) < -128 or w2.max(initial=0) > 127:
        raise bad(node, "B - b_zero_point needs more than two int8 parts (the Cube multiplies int8 x int8 only)")
    return np.concatenate([w1, w2], axis=-2).astype(np.int8)


def quant_gemm(ctx, node: Node, a: DTensor, za, w8: np.ndarray, scale: np.ndarray | None, out_dtype,
               zy: int = 0, bias_i32: np.ndarray | None = None):
    """Lower ``(a - za) @ w8 [* scale + zy]`` onto aclnnQuantMatmulV4 (module doc).
    ``scale`` None: an INT32 out (MatMulInteger). Returns (out DTensor, calls)."""
    calls = []
    za = np.asarray(0 if za is None else za).reshape(-1)
    if za.size != 1:
        raise bad(node, "a per-row A zero point is not supported (FixPipe adds per-column terms only)")
    c_a = -int(za[0])
    if a.dtype == np.uint8:
        a, calls = _shift(ctx, node, a, -128, np.int8, f"{node.outputs[0]}__a_i8")
        c_a += 128
    elif a.dtype != np.int8:
        raise bad(node, f"A dtype {a.dtype} is not int8 or uint8")
    if w8.ndim > 2 and len(a.shape) != w8.ndim:
        raise bad(node, f"A {list(a.shape)} and B {list(w8.shape)}: batched B needs A of the same rank")
    if w8.shape[-2] == 2 * a.shape[-1] != 0:   # B - zb split in two int8 parts: [A, A] @ [W1; W2]
        aa = ctx.alloc(f"{node.outputs[0]}__a_twice", tuple(a.shape[:-1]) + (2 * a.shape[-1],), np.int8)
        calls.append(prepare(node, "aclnnCat", opsnn.aclCreateTensorList([a.tensor, a.tensor]), -1, aa.tensor))
        a = aa
    colsum = w8.astype(np.int64).sum(axis=-2, keepdims=w8.ndim > 2)
    bias = c_a * colsum + (0 if bias_i32 is None else bias_i32.astype(np.int64))
    m_shape = np.broadcast_shapes(tuple(a.shape[:-2]), w8.shape[:-2]) + (a.shape[-2], w8.shape[-1])
    tag = node.outputs[0]
    wt = ctx.upload(tag + "__w_int8", np.ascontiguousarray(w8))
    bt = ctx.upload(tag + "__bias_int32", bias.astype(np.int32)) if np.any(bias) else None
    uint8_out = np.dtype(out_dtype) == np.uint8
    if scale is None:
        st = ctx.upload(tag + "__scale", np.ones(1, np.float32))
        out = ctx.alloc(tag, m_shape, np.int32)
        off = None
    else:
        st = ctx.upload(tag + "__scale", np.asarray(scale, np.float32).reshape(-1))
        out = ctx.alloc(tag + ("__i8" if uint8_out else ""), m_shape, np.int8)
        zoff = zy - (128 if uint8_out else 0)
        off = ctx.upload(tag + "__offset", np.array([zoff], np.float32)) if zoff else None
    calls.append(prepare(node, "aclnnQuantMatmulV4", a.tensor, wt.tensor, st.tensor, off and off.tensor, None,
                         bt and bt.tensor, False, False, out.tensor))
    if uint8_out:
        out, more = _shift(ctx, node, out, 128, np.uint8, tag)
        calls += more
    return out, calls


@register("MatMulInteger")
def lower_matmul_integer(ctx, node: Node, ins):
    a = ins[0]
    b = _const(ctx, node, 1, "B")
    if len(a.shape) < 2 or b.ndim < 2:
        raise bad(node, f"A {list(a.shape)} and B {list(b.shape)} must be at least 2-D")
    w8 = _int8_weight(node, b, _const(ctx, node, 3, "b_zero_point", False))
    out, calls = quant_gemm(ctx, node, a, _const(ctx, node, 2, "a_zero_point", False), w8, None, np.int32)
    return [out], calls


def requant_scale(sa, sb, sy) -> np.ndarray:
    """a_scale * b_scale / y_scale in the scales' own dtype (as the ONNX reference),
    flattened: [1] or per column."""
    sa, sb, sy = (np.asarray(v) for v in (sa, sb, sy))
    return (sa * sb / sy).reshape(-1)


@register("QLinearMatMul")
def lower_qlinear_matmul(ctx, node: Node, ins):
    a = ins[0]
    sa, za = _const(ctx, node, 1, "a_scale"), _const(ctx, node, 2, "a_zero_point", False)
    b, sb = _const(ctx, node, 3, "B"), _const(ctx, node, 4, "b_scale")
    zb = _const(ctx, node, 5, "b_zero_point", False)
    sy, zy = _const(ctx, node, 6, "y_scale"), _const(ctx, node, 7, "y_zero_point", False)
    if len(a.shape) < 2 or b.ndim < 2:
        raise bad(node, f"A {list(a.shape)} and B {list(b.shape)} must be at least 2-D")
    out_dtype = zy.dtype if zy is not None else a.dtype
    if np.dtype(out_dtype) not in (np.dtype(np.int8), np.dtype(np.uint8)):
        raise bad(node, f"output dtype {out_dtype} is not int8 or uint8")
    w8 = _int8_weight(node, b, zb)
    zyv = int(np.asarray(zy).reshape(-1)[0]) if zy is not None else 0
    out, calls = quant_gemm(ctx, node, a, za, w8, requant_scale(sa, sb, sy), out_dtype, zyv)
    return [out], calls


@register("FusedQuantMatMul")
def lower_fused_quant_matmul(ctx, node: Node, ins):
    """The graph-mode node of :mod:`frontend.passes.dequant`: inputs (a_q, w_int8,
    scale, [bias_int32]) with ``a_zero_point``, ``y_zero_point`` and ``out_dtype`` attrs."""
    a = ins[0]
    w8 = np.asarray(ctx.const(node.inputs[1]))
    scale = np.asarray(ctx.const(node.inputs[2]))
    bias = np.asarray(ctx.const(node.inputs[3])) if len(node.inputs) > 3 and node.inputs[3] else None
    out, calls = quant_gemm(ctx, node, a, node.attrs.get("a_zero_point", 0), w8, scale,
                            np.dtype(node.attrs.get("out_dtype", "int8")), int(node.attrs.get("y_zero_point", 0)),
                            bias)
    return [out], calls
