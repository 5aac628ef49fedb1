"""FusedElementwise shape and dtype inference: the broadcast of the inputs, the dtype of
the last step (binary steps keep their first operand's dtype, Cast its ``to``)."""
from __future__ import annotations

import numpy as np


def step_dtypes(in_dtypes, steps) -> list[np.dtype]:
    """numpy dtype of every step's result (see the module doc)."""
    out: list[np.dtype] = []
    n_in = len(in_dtypes)
    for op, operands, attrs in steps:
        if op == "Cast":
            out.append(np.dtype(dict(attrs)["to"]))
        else:
            i = operands[0]
            out.append(np.dtype(in_dtypes[i]) if i < n_in else out[i - n_in])
    return out


def infer_shape(in_shapes) -> tuple[int, ...]:
    """The output shape: numpy broadcast of every input's shape (ValueError if none)."""
    return tuple(np.broadcast_shapes(*[tuple(s) for s in in_shapes]))
