"""TransData shape inference: the C0 of a dtype and the storage shapes of the 5-D
(NC1HWC0) and FRACTAL_Z layouts. Pure, no status codes.

Sources: CANN's aclFormat reference (aclcppdevg "aclFormat", CANN 8.0): NC1HWC0 is
the 5-D format whose C0 is tied to the Cube unit's size, C1 = C / C0 with the last
slice padded up to C0; FRACTAL_Z is the convolution weight format. C0 per dtype is
32 bytes of channels (one 32 B UB block, the Cube's K fractal width): 16 for
fp16/bf16, 8 for fp32, 32 for int8. [assumption for fp32: the Ascend C
``TransDataTo5HD`` page (CANN 7.0) uses C0 = 16 for 32-bit types in the vector
instruction; the Atlas A2 Cube's fp32 fractal is 16 x 8, so a Cube operand in fp32
uses C0 = 8, which is what this simulator's convolution reads.]
FRACTAL_Z storage: [C1 * kh * kw, N1, N0, C0] with N0 = 16 (the Cube's N fractal) and
N1 = ceil(Cout / 16): the weight [Cout, Cin, kh, kw] padded to N1*16 output and C1*C0
input channels, ordered (c1, kh, kw) by rows, then output-channel blocks, then 16
output channels, then C0 input channels.
"""
from __future__ import annotations

#: bytes of channels per C0 slice (one 32 B block)
C0_BYTES = 32
#: the Cube's N fractal: output channels per FRACTAL_Z block
FRACTAL_N0 = 16

NCHW_TO_NC1HWC0 = "NCHW->NC1HWC0"
NC1HWC0_TO_NCHW = "NC1HWC0->NCHW"
NCHW_TO_FRACTAL_Z = "NCHW->FRACTAL_Z"


def c0_for_itemsize(itemsize: int) -> int:
    """C0 (channels per slice) for ``itemsize``-byte elements: 32 B / itemsize
    (fp16/bf16 16, fp32 8, int8 32). ValueError for an itemsize that does not divide 32."""
    if itemsize < 1 or C0_BYTES % itemsize:
        raise ValueError(f"no C0 for {itemsize}-byte elements")
    return C0_BYTES // itemsize


def c1_of(c: int, c0: int) -> int:
    """C1 = ceil(C / C0)."""
    return -(-int(c) // int(c0))


def nc1hwc0_shape(nchw, c0: int) -> tuple[int, int, int, int, int]:
    """Storage shape [N, C1, H, W, C0] of an [N, C, H, W] tensor."""
    n, c, h, w = (int(d) for d in nchw)
    return n, c1_of(c, c0), h, w, int(c0)


def fractal_z_shape(oihw, c0: int) -> tuple[int, int, int, int]:
    """Storage shape [C1*kh*kw, N1, 16, C0] of a [Cout, Cin, kh, kw] weight."""
    co, ci, kh, kw = (int(d) for d in oihw)
    return c1_of(ci, c0) * kh * kw, c1_of(co, FRACTAL_N0), FRACTAL_N0, int(c0)


def trans_data_shape(kind: str, logical, c0: int) -> tuple[int, ...]:
    """The destination storage shape of a TransData ``kind`` from the logical NCHW shape."""
    if kind == NCHW_TO_NC1HWC0:
        return nc1hwc0_shape(logical, c0)
    if kind == NCHW_TO_FRACTAL_Z:
        return fractal_z_shape(logical, c0)
    return tuple(int(d) for d in logical)
