"""The shared l0 ops ``Contiguous`` and ``ViewCopy``: how an operator accepts
non-contiguous views (strides, offset) the way CANN's aclnn layer does.

Kept as one shared l0 op package (not an aclnn op folder): it has no aclnn entry
point and no OpDef, and every op's ``op_api.py`` calls it. Layout: ``tiling.py``
(pure DMA-block cost formula and tiling), ``tiling_data.py``, ``kernel.py`` (tile
program and bodies), ``l0_op.py`` (the phase-1 calls and :class:`WorkspacePlan`).
Usage in phase 1::

    plan = WorkspacePlan(chip, op)
    x_ref = plan.input(x, slot=0)        # TensorRef: x itself, or a copy in workspace
    out_ref = plan.output(out, slot=1)   # out itself, or a workspace staging buffer
    main = PreparedKernel(spec, make_body)   # reads x_ref.addr(addrs, ws), writes out_ref.addr(addrs, ws)
    return aclOpExecutor(name, plan.kernels([main]), [x], [out], plan.size)

``slot`` is the tensor's index in the executor's slot list (inputs first, then
outputs), the same index ``make_body(addrs, ws)`` sees in ``addrs``. Each copy is its
own vector kernel (label ``Contiguous`` before the op, ``ViewCopy`` after it),
timed like any other. :func:`prepare_contiguous` and :func:`prepare_view_copy` are
the single-tensor building blocks, for ops that place their own workspace.
"""
from .l0_op import (WS_ALIGN_BYTES, ContiguousCopy, TensorRef, WorkspacePlan, contiguous_meta, gather_bytes,
                    needs_copy, prepare_contiguous, prepare_view_copy, scatter_bytes)
from .tiling import collapse_view, contiguous_tiling, view_copy_tiling
from .tiling_data import DMA_BLOCK_BYTES, CopyTilingData, CopyTilingKey

__all__ = ["DMA_BLOCK_BYTES", "WS_ALIGN_BYTES", "ContiguousCopy", "CopyTilingData", "CopyTilingKey", "TensorRef",
           "WorkspacePlan", "collapse_view", "contiguous_meta", "contiguous_tiling", "gather_bytes", "needs_copy",
           "prepare_contiguous", "prepare_view_copy", "scatter_bytes", "view_copy_tiling"]
