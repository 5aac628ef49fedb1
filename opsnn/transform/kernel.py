"""Kernel half of the transform family: numpy functional bodies (tile programs are
built by each op's host module)."""
from __future__ import annotations

import numpy as np

from ..base.memview import tensor_view, write_out


def permute_body(x_t, out_t, perm: tuple[int, ...]):
    """Body factory: out = self.permute(perm), copied into out's view. Slots: self, out."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            tensor_view(mem, addrs[1], out_t)[...] = np.transpose(x, perm)
        return body
    return make


def cat_body(ts, out_t, axis: int, used: tuple[int, ...]):
    """Body factory: out = concatenate(tensors[used], axis), each cast to out's dtype.
    Slots: every tensor of the list (in order), then out."""
    od = out_t.np_dtype

    def make(addrs, ws):
        def body(mem):
            parts = [tensor_view(mem, addrs[i], ts[i]).astype(od) for i in used]
            tensor_view(mem, addrs[-1], out_t)[...] = np.concatenate(parts, axis=axis)
        return body
    return make


class EmbeddingIndexError(Exception):
    """An index outside [0, num_embeddings): raised by the Embedding body on the
    device, so it surfaces at synchronisation as a kernel (AI Core) error."""


def embedding_body(w_t, i_t, out_t):
    """Body factory: out[..., :] = weight[indices[...], :]. Slots: weight, indices, out.
    Raises EmbeddingIndexError (nothing is written) if an index is out of range."""
    v = w_t.view_shape[0]

    def make(addrs, ws):
        def body(mem):
            idx = np.asarray(tensor_view(mem, addrs[1], i_t)).astype(np.int64)
            bad = (idx < 0) | (idx >= v)
            if bad.any():
                pos = tuple(int(p) for p in np.argwhere(bad)[0])
                raise EmbeddingIndexError(f"Embedding: indices{list(pos)} = {int(idx[pos])} is out of range "
                                          f"[0, {v}) ({int(bad.sum())} bad index(es))")
            w = tensor_view(mem, addrs[0], w_t)
            write_out(mem, addrs[2], out_t, w[idx])
        return body
    return make
