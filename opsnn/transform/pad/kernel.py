"""Pad kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)
from .infershape import per_axis

#: CANN mode -> numpy.pad mode
NP_MODE = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}


def pad_fn(pad, mode: str, value):
    """``fn(x) -> [out]``: crop the negative pads, then ``numpy.pad`` the positive ones."""
    def fn(x):
        pairs = per_axis(pad, x.ndim)
        crop = tuple(slice(-b if b < 0 else 0, x.shape[i] + e if e < 0 else None) for i, (b, e) in enumerate(pairs))
        x = x[crop]
        widths = [(max(b, 0), max(e, 0)) for b, e in pairs]
        if mode == "constant":
            return [np.pad(x, widths, mode="constant", constant_values=np.array(value).astype(x.dtype))]
        return [np.pad(x, widths, mode=NP_MODE[mode])]
    return fn
