"""Contiguous / ViewCopy kernel half: the copy's tile program from its tiling data,
and the numpy bodies (a strided view read into, or written from, a row-major buffer)."""
from __future__ import annotations

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view
from ...base.vector_tiling import vector_spec
from .tiling_data import CopyTilingData


def tile_program(td: CopyTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec of one copy tiled as ``td`` (per element: MTE2, VECTOR only for a
    broadcast, MTE3; :meth:`CopyTilingData.unit_bytes`). ``args``: trace args (op,
    shapes, dtype, strides, offset); the useful GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec(td.label, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, bytes=int(td.mte2_bytes + td.mte3_bytes)))


def contiguous_body(t, slot: int, ws_offset: int):
    """Body factory: read view ``t`` (executor slot ``slot``) into the row-major buffer
    ``ws_offset`` bytes into the workspace."""
    shape, dtype = t.view_shape, t.np_dtype

    def make_body(addrs, ws):
        src, dst = addrs[slot], ws + ws_offset

        def body(mem):
            mem.array(dst, shape, dtype)[...] = tensor_view(mem, src, t)
        return body
    return make_body


def view_copy_body(out, slot: int, ws_offset: int):
    """Body factory: write the row-major buffer ``ws_offset`` bytes into the workspace
    to view ``out`` (executor slot ``slot``)."""
    shape, dtype = out.view_shape, out.np_dtype

    def make_body(addrs, ws):
        src, dst = ws + ws_offset, addrs[slot]

        def body(mem):
            tensor_view(mem, dst, out)[...] = mem.array(src, shape, dtype)
        return body
    return make_body
