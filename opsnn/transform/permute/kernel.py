"""Permute kernel half: the tile program from the tiling data, and the numpy body
(out = self.permute(perm))."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view
from ...base.vector_tiling import vector_spec
from .tiling_data import PermuteTilingData


def tile_program(td: PermuteTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec of a Permute tiled as ``td`` (:meth:`PermuteTilingData.unit_bytes`).
    ``args``: trace args (shapes, dtype, perm); the merged permutation, the strategy
    and the useful GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec("Permute", td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, merged_perm=list(td.merged_perm), strategy=td.strategy, bytes=td.gm_bytes))


def permute_body(x_ref, out_ref, perm: tuple[int, ...]):
    """Body factory: out = self.permute(perm). Refs: TensorRefs (slot or workspace)."""
    def make(addrs, ws):
        xa, oa = x_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            x = tensor_view(mem, xa, x_ref.meta)
            tensor_view(mem, oa, out_ref.meta)[...] = np.transpose(x, perm)
        return body
    return make
