"""Geometry shared by the CNN lowerings (:mod:`.cnn`, :mod:`.cnn_nd`): ONNX output
lengths, auto_pad, the spatial rank, and the 1-D-as-2-D lift."""
from __future__ import annotations

from ..errors import UnsupportedModelError
from ..graph import Node
from .attrs import attr_int, attr_ints, bad
from .tensors import DTensor


def _pool_out(size: int, k: int, s: int, p0: int, p1: int, d: int = 1, ceil: bool = False) -> int:
    eff = d * (k - 1) + 1
    num = size + p0 + p1 - eff
    out = (-(-num // s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= size + p0:
        out -= 1
    return out


def _auto_pads(node: Node, in_hw, kernel, strides, dilations) -> list[int]:
    """ONNX pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...] from explicit pads or auto_pad."""
    n = len(kernel)
    ap = node.attrs.get("auto_pad", "NOTSET") or "NOTSET"
    if ap not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise bad(node, f"auto_pad {ap!r} is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER")
    if ap == "VALID":
        return [0] * (2 * n)
    if ap == "NOTSET":
        pads = attr_ints(node, "pads", [0] * (2 * n), 2 * n)
        if min(pads, default=0) < 0:
            raise bad(node, f"pads {pads} must be >= 0")
        return pads
    begin, end = [], []
    for size, k, s, d in zip(in_hw, kernel, strides, dilations):
        out = -(-size // s)
        total = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
        small, big = total // 2, total - total // 2
        begin.append(small if ap == "SAME_UPPER" else big)
        end.append(big if ap == "SAME_UPPER" else small)
    return begin + end


def _spatial_rank(node: Node, x: DTensor, max_rank: int = 2) -> int:
    """1 .. ``max_rank`` spatial dims (input [N, C, L], [N, C, H, W], ...); else
    UnsupportedModelError."""
    nsp = len(x.shape) - 2
    if 1 <= nsp <= max_rank:
        return nsp
    if nsp > max_rank:
        raise UnsupportedModelError(f"unsupported: {nsp}-D {node.op_type} (node {node.name!r}); only 1-D to "
                                    f"{max_rank}-D are supported")
    raise bad(node, f"input shape {list(x.shape)} needs at least 3 dims [N, C, spatial...]")


def _geometry(node: Node, x: DTensor, kernel: list[int], dilations: bool = True):
    """(strides, dilations, pads) for ``kernel`` over x's spatial dims, validated."""
    nsp = len(kernel)
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    dl = attr_ints(node, "dilations", [1] * nsp, nsp) if dilations else [1] * nsp
    if min(kernel) < 1 or min(st) < 1 or min(dl) < 1:
        raise bad(node, f"kernel {kernel}, strides {st} and dilations {dl} must be >= 1")
    return st, dl, _auto_pads(node, x.shape[2:], kernel, st, dl)


def _lift(ctx, node: Node, t: DTensor, suffix: str) -> DTensor:
    """A [N, C, L] tensor viewed as [N, C, 1, L] (1-D ops run as 2-D ops with H = 1)."""
    return ctx.view(t, f"{node.outputs[0]}__{suffix}_4d", t.shape[:2] + (1,) + t.shape[2:])


def _to_2d(kernel, st, dl, pads):
    """1-D geometry as 2-D (H = 1): kernel/strides/dilations get a leading 1, pads
    [begin, end] become [0, begin, 0, end]."""
    return [1] + kernel, [1] + st, [1] + dl, [0, pads[0], 0, pads[1]]


def conv_weight(node: Node, x: DTensor, w: DTensor) -> tuple[int, list[int], int]:
    """(spatial rank 1..3, kernel from the weight, group) of a Conv / ConvTranspose
    node, checking the weight's rank and ``kernel_shape`` against it."""
    nsp = _spatial_rank(node, x, 3)
    if len(w.shape) != nsp + 2:
        raise bad(node, f"weight shape {list(w.shape)} does not match a {nsp}-D input {list(x.shape)}")
    kernel = list(w.shape[2:])
    ks = attr_ints(node, "kernel_shape", None, nsp)
    if ks is not None and ks != kernel:
        raise bad(node, f"kernel_shape {ks} does not match the weight's {kernel}")
    return nsp, kernel, attr_int(node, "group", 1)
