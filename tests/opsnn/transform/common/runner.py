"""Run one transform aclnn op on the test device: numpy arrays become device tensors
(contiguous or a non-contiguous layout), :class:`Out` placeholders become zeroed
outputs, and both phases run; returns the outputs on the host and the executor."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import opsnn
from tests.opsnn.transform.helpers import device_tensor, empty


@dataclass
class Out:
    shape: tuple
    dtype: object


def run(npu, name: str, *args, layout: str = "contiguous", tensor_list_out: bool = False):
    """Both phases of ``aclnn<name>``; ``args`` in CANN order. A list of Out is an
    aclTensorList output. Returns (list of host outputs, executor)."""
    outs, conv = [], []
    for a in args:
        if isinstance(a, np.generic):
            a = np.asarray(a)
        if isinstance(a, np.ndarray):
            conv.append(device_tensor(npu, a, layout if a.ndim >= 1 and a.dtype.kind == "f" else "contiguous"))
        elif isinstance(a, Out):
            ptr, t = empty(npu, a.shape, a.dtype)
            outs.append((ptr, a))
            conv.append(t)
        elif isinstance(a, list) and a and isinstance(a[0], Out):
            ts = []
            for o in a:
                ptr, t = empty(npu, o.shape, o.dtype)
                outs.append((ptr, o))
                ts.append(t)
            conv.append(opsnn.aclCreateTensorList(ts))
        else:
            conv.append(a)
    prep = getattr(opsnn, f"aclnn{name}GetWorkspaceSize")(*conv)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, getattr(opsnn, f"aclnn{name}"))
    return [npu.to_host(p, o.shape, o.dtype) for p, o in outs], prep[1]


def many_tiles(ex) -> bool:
    """The op's kernel ran on several blocks with several UB tiles."""
    spec = next(k.spec for k in ex.kernels if k.spec.name not in ("Contiguous", "ViewCopy"))
    return spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
