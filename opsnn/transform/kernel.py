"""Kernel half of the transform family: numpy functional bodies (tile programs are
built by each op's host module)."""
from __future__ import annotations

import numpy as np

from ..base.memview import tensor_view, write_out


def permute_body(x_ref, out_ref, perm: tuple[int, ...]):
    """Body factory: out = self.permute(perm). Refs: TensorRefs (slot or workspace)."""
    def make(addrs, ws):
        xa, oa = x_ref.addr(addrs, ws), out_ref.addr(addrs, ws)

        def body(mem):
            x = tensor_view(mem, xa, x_ref.meta)
            tensor_view(mem, oa, out_ref.meta)[...] = np.transpose(x, perm)
        return body
    return make


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
            w = tensor_view(mem, wa, w_t)
            write_out(mem, oa, out_t, w[idx])
        return body
    return make
