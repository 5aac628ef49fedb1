"""Selection tiling: a pure function of (chip, operand shapes and dtypes, compute
dtypes, kernel); no device. Bytes per element and the UB budget as in
:mod:`..common.tiling`, pass counts from :data:`.tiling_data.SELECT_COSTS`.

``select_tiling(chip, kernel, ins, in_cts, out, out_ct, *, name=None, n=None,
extra_passes=0, out_units=True) -> TilingResult``, ``ins`` / ``out`` as (shape,
aclDataType) pairs, ``kernel`` one of Where, Eq, Equal (Equal: ``n`` the larger
operand's element count, ``out_units`` False).
"""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import SELECT_COSTS

select_tiling = family_tiling("select", SELECT_COSTS)
