"""Cast tiling without a device: chip config, shape and the two dtypes in; key,
tiling data, block_dim and workspace out."""
import pytest

from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.cast.tiling import cast_tiling
from opsnn.math.cast.tiling_data import CAST_COSTS, EltwiseTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


@pytest.mark.parametrize("src,dst,si,di", [(T.ACL_FLOAT, T.ACL_BF16, 4, 2), (T.ACL_INT8, T.ACL_DOUBLE, 1, 8),
                                           (T.ACL_FLOAT16, T.ACL_BOOL, 2, 1)])
def test_cast_moves_each_side_at_its_itemsize(src, dst, si, di):
    n = 10000
    res = cast_tiling(TINY, "Cast", [((n,), src)], [src], ((n,), dst), dst)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes) == (EltwiseTilingKey.STREAM, 0)
    assert td.casts == 0 and td.tmp_bytes_per_unit == 0          # the conversion is the op's one pass
    assert (td.in_bytes_per_unit, td.out_bytes_per_unit) == (si, di)
    assert td.vec_bytes_per_unit == CAST_COSTS["Cast"].passes * max(si, di)
    assert td.gm_bytes == n * (si + di)
    # UB: double-buffered in + out per element, whole UB tiles of one block each at most
    assert v.ub_factor * 2 * (si + di) <= v.ub_bytes_used <= TINY.ub_bytes
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


def test_small_cast_is_one_block_and_large_spreads_over_every_aiv():
    small = cast_tiling(B2, "Cast", [((256,), T.ACL_FLOAT)], [T.ACL_FLOAT], ((256,), T.ACL_FLOAT16), T.ACL_FLOAT16)
    big = cast_tiling(B2, "Cast", [((1 << 22,), T.ACL_FLOAT)], [T.ACL_FLOAT], ((1 << 22,), T.ACL_FLOAT16),
                      T.ACL_FLOAT16)
    assert small.block_dim == 1
    assert big.block_dim == B2.vector_core_count
