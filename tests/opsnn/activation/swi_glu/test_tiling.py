"""SwiGlu tiling without a device: units are output elements, each reading two inputs."""
import ml_dtypes  # noqa: F401
import pytest

from npu_sim import PRESETS
from opsnn.activation.swi_glu.tiling import swi_glu_tiling
from opsnn.activation.swi_glu.tiling_data import SWI_GLU_COST
from opsnn.base.dtypes import aclDataType as T


@pytest.mark.parametrize("chip", ["tiny", "ascend910b2"])
@pytest.mark.parametrize("dtype,item", [(T.ACL_FLOAT, 4), (T.ACL_FLOAT16, 2)])
def test_units_bytes_and_ub(chip, dtype, item):
    cfg = PRESETS[chip]
    res = swi_glu_tiling(cfg, (7, 33, 64), dtype, -1)
    td, vt = res.data, res.data.vector
    assert td.n == vt.total_units == 7 * 33 * 32
    assert td.in_bytes_per_unit == 2 * item and td.out_bytes_per_unit == item
    casts = 0 if item == 4 else 2
    assert td.casts == casts and td.vec_bytes_per_unit == (SWI_GLU_COST.passes + casts) * 4
    assert vt.per_block * (vt.block_dim - 1) < vt.total_units <= vt.per_block * vt.block_dim
    assert vt.ub_bytes_used <= cfg.ub_bytes and res.workspace_bytes == 0
    assert td.gm_bytes == 7 * 33 * 64 * item + 7 * 33 * 32 * item


def test_split_on_a_leading_dim_halves_that_dim():
    res = swi_glu_tiling(PRESETS["tiny"], (8, 5), T.ACL_FLOAT, 0)
    assert res.data.n == 4 * 5
