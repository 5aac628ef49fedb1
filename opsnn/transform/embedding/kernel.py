"""Embedding kernel half: the tile program from the tiling data, and the numpy body
(out[..., :] = weight[indices[...], :], with a device-side index check)."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import EmbeddingTilingData


def tile_program(td: EmbeddingTilingData, args: dict, tiling_key: int = 0, name: str = "Embedding") -> KernelSpec:
    """The AIV spec of a row gather (Embedding, or GatherV2's same rows) named ``name``,
    tiled as ``td`` (:meth:`EmbeddingTilingData.unit_bytes`). ``args``: trace args
    (shapes, dtypes); the chunking and useful GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec(name, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, chunks_per_row=td.chunks_per_row, bytes=int(td.units * (i + o))))


class EmbeddingIndexError(Exception):
    """An index outside [0, num_embeddings): raised by the Embedding body on the
    device, so it surfaces at synchronisation as a kernel (AI Core) error."""


def embedding_body(w_ref, i_ref, out_ref):
    """Body factory: out[..., :] = weight[indices[...], :]. Refs: TensorRefs.
    Raises EmbeddingIndexError (nothing is written) if an index is out of range."""
    w_t, i_t, out_t = w_ref.meta, i_ref.meta, out_ref.meta
    v = w_t.view_shape[0]

    def make(addrs, ws):
        wa, ia, oa = w_ref.addr(addrs, ws), i_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            idx = np.asarray(tensor_view(mem, ia, i_t)).astype(np.int64)
            bad = (idx < 0) | (idx >= v)
            if bad.any():
                pos = tuple(int(p) for p in np.argwhere(bad)[0])
                raise EmbeddingIndexError(f"Embedding: indices{list(pos)} = {int(idx[pos])} is out of range "
                                          f"[0, {v}) ({int(bad.sum())} bad index(es))")
            w = tensor_view(mem, wa, w_t, writable=False)   # the table: read, never copied
            write_out(mem, oa, out_t, w[idx])
        return body
    return make
