"""GatherV2 kernel half: the numpy body, out = self[index] along dim 0 with negative
indices counted from the end and a device-side range check. The tile program is
Embedding's row gather named GatherV2 (``embedding.kernel.tile_program``); the index
wrap is a scalar add per lookup, not timed."""
from __future__ import annotations

import numpy as np

from ...base.memview import tensor_view, write_out


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
            x = tensor_view(mem, xa, x_t, writable=False)   # a weight: read, never copied
            write_out(mem, oa, out_t, x[np.where(idx < 0, idx + n, idx)])
        return body
    return make
