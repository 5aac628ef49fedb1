"""TransData kernel half: the tile program from the tiling data, the numpy layout
transforms and the body.

Layouts (``infershape.py``): NC1HWC0 ``x5[n, c1, h, w, c0] = x[n, c1*C0 + c0, h, w]``
(0 where c1*C0 + c0 >= C); FRACTAL_Z ``wz[(c1*kh + i)*kw + j, n1, n0, c0] =
w[n1*16 + n0, c1*C0 + c0, i, j]`` (0 in the padding). The transforms are exact
(a copy, no arithmetic), so a convolution run through them gives the same numbers.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view
from ...base.vector_tiling import vector_spec
from .infershape import FRACTAL_N0, NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0, c1_of
from .tiling_data import TransDataTilingData


def _split_channels(dst: np.ndarray, src: np.ndarray, c0: int) -> None:
    """Write ``src`` [A, C, ...] into ``dst`` [A', C1, C0, ...] (a strided view of a
    zeroed packed array, A' >= A) as ``dst[a, c // C0, c % C0] = src[a, c]``: whole C0
    groups in one assignment, the last partial group in a second (one copy of the data)."""
    a, c = src.shape[:2]
    full = c // c0
    if full:
        dst[:a, :full] = src[:, :full * c0].reshape((a, full, c0) + src.shape[2:])
    if c % c0:
        dst[:a, full, :c % c0] = src[:, full * c0:]


def nchw_to_nc1hwc0(x: np.ndarray, c0: int) -> np.ndarray:
    """[N, C, H, W] -> [N, C1, H, W, C0], channels zero-padded to C1*C0 (x's dtype).
    One copy: ``x`` is written through the [N, C1, C0, H, W] view of the zeroed output."""
    n, c, h, w = x.shape
    c1 = c1_of(c, c0)
    out = np.zeros((n, c1, h, w, c0), x.dtype)
    _split_channels(out.transpose(0, 1, 4, 2, 3), x, c0)
    return out


def nc1hwc0_to_nchw(x5: np.ndarray, c: int) -> np.ndarray:
    """[N, C1, H, W, C0] -> [N, C, H, W] (the pad channels dropped)."""
    n, c1, h, w, c0 = x5.shape
    return np.ascontiguousarray(x5.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :c])


def nchw_to_nc1hwc0_into(x: np.ndarray, out5: np.ndarray) -> None:
    """:func:`nchw_to_nc1hwc0` of ``x`` [N, C, H, W] written straight into ``out5``
    [N, C1, H, W, C0] (cast to its dtype on assignment, the pad channels set to 0): one
    pass over the data instead of a padded copy, a transposed copy and the store. The
    same values (a copy, no arithmetic)."""
    n, c, h, w = x.shape
    c1, c0 = out5.shape[1], out5.shape[4]
    full = c // c0
    if full:
        out5[:, :full] = x[:, :full * c0].reshape(n, full, c0, h, w).transpose(0, 1, 3, 4, 2)
    if full < c1:   # the last slice: the remaining channels, then zeros
        rem = c - full * c0
        out5[:, full, :, :, :rem] = x[:, full * c0:].transpose(0, 2, 3, 1)
        out5[:, full, :, :, rem:] = 0


def nc1hwc0_to_nchw_into(x5: np.ndarray, out: np.ndarray) -> bool:
    """:func:`nc1hwc0_to_nchw` of ``x5`` written straight into ``out`` [N, C, H, W]
    (cast on assignment) in one pass. Returns False, writing nothing, when ``out``'s
    channel axis cannot be split into [C1, C0] views (then use the copying form)."""
    n, c1, h, w, c0 = x5.shape
    c = out.shape[1]
    full = c // c0
    if full:
        v = out[:, :full * c0].reshape(n, full, c0, h, w)
        if v.flags.owndata:   # a copy, not a view of ``out``
            return False
        v[...] = x5[:, :full].transpose(0, 1, 4, 2, 3)
    if full < c1:
        out[:, full * c0:] = x5[:, full, :, :, :c - full * c0].transpose(0, 3, 1, 2)
    return True


#: output channels per block of :func:`oihw_to_fractal_z`'s copy (the source rows one
#: block reads stay in cache while the block's C1*kh*kw rows of fractals are written)
PACK_BLOCK_CO = 64


def oihw_to_fractal_z(wt: np.ndarray, c0: int) -> np.ndarray:
    """Weight [Cout, Cin, kh, kw] -> FRACTAL_Z [C1*kh*kw, N1, 16, C0] (zero-padded),
    a new C-contiguous array of ``wt``'s dtype owning its memory. One copy with
    contiguous writes: the [C1, kh, kw, N1*16, C0] view of the output is written in
    order from a transposed view of ``wt``, ``PACK_BLOCK_CO`` output channels at a
    time, and only the pad is zeroed. A C-contiguous 1x1 weight of whole C0 slices
    moves each slice (32 bytes, contiguous on both sides) as one item
    (``tests/opsnn/transform/test_trans_data_one_copy.py`` checks it bit for bit
    against the pad-then-transpose form)."""
    co, ci, kh, kw = wt.shape
    c1, n1 = c1_of(ci, c0), c1_of(co, FRACTAL_N0)
    out = np.empty((c1 * kh * kw, n1, FRACTAL_N0, c0), wt.dtype)
    view = out.reshape(c1, kh, kw, n1 * FRACTAL_N0, c0)
    full, rem = divmod(ci, c0)
    if full:   # src / dst: [C1, (kh, kw,) Cout, C0 or one C0-slice item], written by blocks of Cout
        if kh * kw == 1 and not rem and wt.flags.c_contiguous:
            item = np.dtype((np.void, c0 * wt.itemsize))   # one C0 slice, contiguous in wt and in out
            src = wt.reshape(co, full, c0).view(item).transpose(1, 0, 2)
            dst = out.reshape(c1, n1 * FRACTAL_N0, c0).view(item)
        else:
            src, dst = wt[:, :full * c0].reshape(co, full, c0, kh, kw).transpose(1, 3, 4, 0, 2), view
        for b in range(0, co, PACK_BLOCK_CO):
            e = min(b + PACK_BLOCK_CO, co)
            dst[:full, ..., b:e, :] = src[:, ..., b:e, :]
    if rem:
        view[full, :, :, :co, :rem] = wt[:, full * c0:].transpose(2, 3, 0, 1)
        view[full, :, :, :co, rem:] = 0
    view[:, :, :, co:] = 0
    return out


def fractal_z_to_oihw(wz: np.ndarray, oihw) -> np.ndarray:
    """FRACTAL_Z [C1*kh*kw, N1, 16, C0] -> weight ``oihw`` [Cout, Cin, kh, kw]."""
    co, ci, kh, kw = (int(d) for d in oihw)
    rows, n1, n0, c0 = wz.shape
    c1 = rows // (kh * kw)
    r = wz.reshape(c1, kh, kw, n1, n0, c0).transpose(3, 4, 0, 5, 1, 2).reshape(n1 * n0, c1 * c0, kh, kw)
    return np.ascontiguousarray(r[:co, :ci])


def packed_view(mem, addr: int, shape, np_dtype, writable: bool = True) -> np.ndarray:
    """numpy view of a row-major packed (NC1HWC0 / FRACTAL_Z) storage at ``addr``
    (``writable=False``: only read, see :func:`opsnn.base.memview.tensor_view`)."""
    if writable:
        return mem.array(addr, tuple(int(d) for d in shape), np_dtype, None)
    return mem.array(addr, tuple(int(d) for d in shape), np_dtype, None, writable=False)


def tile_program(td: TransDataTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV spec of a TransData tiled as ``td`` (cost: ``tiling.py``). ``args``:
    trace args; the conversion, C0, shapes and GM bytes are added."""
    i, o, v = td.unit_bytes()
    return vector_spec("TransData", td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, conversion=td.kind, c0=td.c0, logical=list(td.logical),
                                 packed=list(td.packed), bytes=td.src_bytes + td.dst_bytes))


def convert(kind: str, src: np.ndarray, logical, c0: int) -> np.ndarray:
    """Apply TransData ``kind`` to ``src`` (the plain NCHW array, or the packed one for
    NC1HWC0->NCHW; ``logical`` gives C)."""
    if kind == NC1HWC0_TO_NCHW:
        return nc1hwc0_to_nchw(src, int(logical[1]))
    if kind == NCHW_TO_FRACTAL_Z:
        return oihw_to_fractal_z(src, c0)
    return nchw_to_nc1hwc0(src, c0)


def trans_data_body(td: TransDataTilingData, src_ref, dst_ref):
    """Body factory of TransData ``td``. Refs: TensorRefs (slot or workspace); the
    packed side is read or written as its row-major storage ``td.packed``, the plain
    side through its aclTensor view."""
    def make(addrs, ws):
        sa, da = src_ref.addr(addrs, ws), dst_ref.addr(addrs, ws)
        unpack = td.kind == NC1HWC0_TO_NCHW

        def body(mem):
            if unpack:
                src = packed_view(mem, sa, td.packed, src_ref.meta.np_dtype, writable=False)
                dst = tensor_view(mem, da, dst_ref.meta)
                if not nc1hwc0_to_nchw_into(src, dst):
                    dst[...] = convert(td.kind, src, td.logical, td.c0)
            elif td.kind == NCHW_TO_NC1HWC0:
                nchw_to_nc1hwc0_into(tensor_view(mem, sa, src_ref.meta, writable=False),
                                     packed_view(mem, da, td.packed, dst_ref.meta.np_dtype))
            else:
                src = tensor_view(mem, sa, src_ref.meta, writable=False)
                packed_view(mem, da, td.packed, dst_ref.meta.np_dtype)[...] = convert(td.kind, src, td.logical,
                                                                                       td.c0)
        return body
    return make
