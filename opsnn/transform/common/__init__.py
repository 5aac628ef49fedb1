"""Pieces shared by the data-movement and index ops of ``opsnn/transform`` (Pad, Split,
Repeat, DepthToSpace, Triu/Tril, Arange, OneHot, Cumsum, Gather*, Scatter*, Topk,
ArgMax/ArgMin): one tiling struct and cost helper (``move_tiling.py``), one tile
program and numpy body factory (``move_kernel.py``), and the phase-1 helpers
(``phase1.py``: attribute parsing, the executor build with Contiguous/ViewCopy)."""
from .move_kernel import DeviceIndexError, array_body, move_spec
from .move_tiling import DMA_BLOCK_BYTES, MoveTilingData, MoveTilingKey, move_tiling, row_bytes
from .phase1 import ALL_TYPES, build_executor, check_out, int_arg, int_list, norm_dim

__all__ = ["ALL_TYPES", "DMA_BLOCK_BYTES", "DeviceIndexError", "MoveTilingData", "MoveTilingKey", "array_body",
           "build_executor", "check_out", "int_arg", "int_list", "move_spec", "move_tiling", "norm_dim", "row_bytes"]
