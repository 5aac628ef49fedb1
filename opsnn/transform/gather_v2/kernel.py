"""GatherV2 kernel half: the tile program (Embedding's row gather under its own name)
and the numpy body (out = self[index] along dim 0, negative indices counted from the
end, with a device-side range check)."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from ..embedding.tiling_data import EmbeddingTilingData


def tile_program(td: EmbeddingTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec of a GatherV2 tiled as ``td``: the bytes and stages of an Embedding
    of the same rows (:meth:`EmbeddingTilingData.unit_bytes`); the index wrap is a
    scalar add per lookup, not timed."""
    i, o, v = td.unit_bytes()
    return vector_spec("GatherV2", td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, chunks_per_row=td.chunks_per_row, bytes=int(td.units * (i + o))))


class GatherV2IndexError(Exception):
    """An index outside [-n, n) of dim 0: raised by the body on the device, so it
    surfaces at synchronisation as a kernel (AI Core) error."""


def gather_v2_body(x_ref, i_ref, out_ref):
    """Body factory: out[idx..., rest...] = self[wrap(idx), rest...]. Refs: TensorRefs
    (``self`` viewed 2-D as [n, rest]). Raises GatherV2IndexError (nothing is written)
    if an index is outside [-n, n)."""
    x_t, i_t, out_t = x_ref.meta, i_ref.meta, out_ref.meta
    n = x_t.view_shape[0]

    def make(addrs, ws):
        xa, ia, oa = x_ref.addr(addrs, ws), i_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            idx = np.asarray(tensor_view(mem, ia, i_t)).astype(np.int64)
            bad = (idx < -n) | (idx >= n)
            if bad.any():
                pos = tuple(int(p) for p in np.argwhere(bad)[0])
                raise GatherV2IndexError(f"GatherV2: index{list(pos)} = {int(idx[pos])} is out of range "
                                         f"[-{n}, {n}) ({int(bad.sum())} bad index(es))")
            x = tensor_view(mem, xa, x_t)
            write_out(mem, oa, out_t, x[np.where(idx < 0, idx + n, idx)])
        return body
    return make
