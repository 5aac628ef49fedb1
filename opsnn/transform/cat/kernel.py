"""Cat kernel half: the tile program from the tiling data, and the numpy body
(out = concatenate(tensors, dim), each cast to out's dtype)."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view
from ...base.vector_tiling import vector_spec
from .tiling_data import CatTilingData


def tile_program(td: CatTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec of a Cat tiled as ``td`` (:meth:`CatTilingData.unit_bytes`).
    ``args``: trace args (shapes, dim, dtype); the useful GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec("Cat", td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, bytes=td.mte2_bytes + td.mte3_bytes))


def cat_body(refs, out_ref, axis: int):
    """Body factory: out = concatenate(refs, axis), each cast to out's dtype. ``refs``:
    TensorRefs of the tensors concatenated (the skipped legacy-empty ones left out)."""
    od = out_ref.meta.np_dtype

    def make(addrs, ws):
        src = [(r.addr(addrs, ws), r.meta) for r in refs]
        oa = out_ref.addr(addrs, ws)

        def body(mem):
            parts = [tensor_view(mem, a, m).astype(od) for a, m in src]
            tensor_view(mem, oa, out_ref.meta)[...] = np.concatenate(parts, axis=axis)
        return body
    return make
