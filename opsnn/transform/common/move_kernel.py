"""The shared kernel half of the transform ops: the tile program from a
:class:`~.move_tiling.MoveTilingData`, and the numpy body factory that reads every
input, applies the op's array function and writes every output."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .move_tiling import MoveTilingData


class DeviceIndexError(Exception):
    """An index outside its range found by a gather/scatter body on the device: it
    surfaces at synchronisation as an AI Core error (ACL_ERROR_RT_AICORE_EXCEPTION,
    507015), nothing written. CANN leaves out-of-range indices undefined."""


def move_spec(td: MoveTilingData, args: dict, tiling_key: int = 0) -> KernelSpec:
    """The AIV spec of a transform kernel tiled as ``td``: per UB tile CopyIn on MTE2,
    the Vector pass (if any), CopyOut on MTE3, double-buffered
    (:func:`~opsnn.base.vector_tiling.vector_spec`). ``args``: trace args; the
    strategy, op params and GM bytes are added here."""
    i, o, v = td.unit_bytes()
    return vector_spec(td.label, td.vector, i, o, v, tiling_key=tiling_key,
                       args=dict(args, strategy=td.strategy, **dict(td.params), bytes=td.gm_bytes))


def array_body(in_refs, out_refs, fn):
    """Body factory: ``outs = fn(*ins)`` on numpy copies of the inputs (``in_refs``:
    TensorRefs, None entries passed as None), each result stored into its output
    (``out_refs``; None or empty outputs skipped), cast to the output's dtype. ``fn``
    may raise :class:`DeviceIndexError` (nothing is written then)."""
    def make(addrs, ws):
        srcs = [None if r is None else (r.addr(addrs, ws), r.meta) for r in in_refs]
        dsts = [None if r is None else (r.addr(addrs, ws), r.meta) for r in out_refs]

        def body(mem):
            arrays = [None if s is None else np.array(tensor_view(mem, s[0], s[1])) for s in srcs]
            results = fn(*arrays)
            for d, val in zip(dsts, results):
                if d is not None and d[1].numel:
                    write_out(mem, d[0], d[1], np.asarray(val).reshape(d[1].view_shape))
        return body
    return make
