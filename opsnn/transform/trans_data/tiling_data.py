"""TransData tiling struct and key, shared by the host and kernel halves."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData
from .infershape import NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0


class TransDataTilingKey(IntEnum):
    """One kernel variant per conversion."""

    NCHW_TO_NC1HWC0 = 0
    NC1HWC0_TO_NCHW = 1
    NCHW_TO_FRACTAL_Z = 2

    @classmethod
    def of(cls, kind: str) -> "TransDataTilingKey":
        return {NCHW_TO_NC1HWC0: cls.NCHW_TO_NC1HWC0, NC1HWC0_TO_NCHW: cls.NC1HWC0_TO_NCHW,
                NCHW_TO_FRACTAL_Z: cls.NCHW_TO_FRACTAL_Z}[kind]


@dataclass(frozen=True)
class TransDataTilingData:
    """How phase 1 tiled a TransData (one unit per element of the padded layout).

    kind: the conversion (``infershape`` constants). logical: the NCHW shape (the
    weight's [Cout, Cin, kh, kw] for FRACTAL_Z). packed: the padded storage shape of
    the 5-D / FRACTAL_Z side. c0: channels per slice. itemsize: bytes per element.
    src_bytes / dst_bytes: bytes read from and written to GM (the unpadded side is
    numel(logical) * itemsize, the padded side numel(packed) * itemsize).
    vector: the UB-streaming struct (units = packed elements).
    """

    kind: str
    logical: tuple[int, ...]
    packed: tuple[int, ...]
    c0: int
    itemsize: int
    src_bytes: int
    dst_bytes: int
    vector: VectorTilingData

    @property
    def units(self) -> int:
        return self.vector.total_units

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per packed element: (MTE2 in, MTE3 out, VECTOR operand) bytes. The Vector
        unit touches every packed element once (the in-UB transpose, Ascend C
        ``TransDataTo5HD``)."""
        u = self.units
        return self.src_bytes / u, self.dst_bytes / u, float(self.itemsize)
