"""3-D pooling tiling struct: the two passes' pooling structs and the workspace that
carries the first pass's result to the second."""
from __future__ import annotations

from dataclasses import dataclass

from ..common.tiling_data import PoolTilingData


@dataclass(frozen=True)
class Pool3dTilingData:
    """pass_hw: the (H, W) pass over every depth slice; pass_d: the D pass over
    [planes, D, Ho*Wo]. ws_item: bytes per intermediate value in the workspace (fp32
    for the average's partial means, the input's itemsize for the max, + 4 for the
    int32 plane index with argmax). workspace_bytes: ``pass_hw`` outputs * ws_item."""

    pass_hw: PoolTilingData
    pass_d: PoolTilingData
    ws_item: int
    workspace_bytes: int
