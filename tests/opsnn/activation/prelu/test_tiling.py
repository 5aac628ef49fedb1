"""PRelu tiling without a device: the channel weight is a broadcast input read once."""
from npu_sim import PRESETS
from opsnn.activation.prelu.infershape import weight_view_shape
from opsnn.activation.prelu.tiling import prelu_tiling
from opsnn.activation.prelu.tiling_data import PRELU_COSTS
from opsnn.base.dtypes import aclDataType as T


def test_weight_view_rules():
    assert weight_view_shape((2, 3, 4, 5), (3,)) == (1, 3, 1, 1)      # CANN: channel dim 1
    assert weight_view_shape((2, 3, 4, 5), (1,)) == (1,)              # one element
    assert weight_view_shape((2, 3, 4, 5), (1, 1, 4, 5)) == (1, 1, 4, 5)
    assert weight_view_shape((2, 3, 4, 5), (4,)) is None
    assert weight_view_shape((7,), (7,)) == (7,)


def test_channel_weight_tiling():
    for chip in (PRESETS["tiny"], PRESETS["ascend910b2"]):
        n = 8 * 64 * 14 * 14
        res = prelu_tiling(chip, "Prelu", [((8, 64, 14, 14), T.ACL_FLOAT), ((1, 64, 1, 1), T.ACL_FLOAT)],
                           [T.ACL_FLOAT] * 2, ((8, 64, 14, 14), T.ACL_FLOAT), T.ACL_FLOAT)
        td, v = res.data, res.data.vector
        assert td.broadcasts == 1 and td.vec_bytes_per_unit == (PRELU_COSTS["Prelu"].passes + 1) * 4
        assert td.gm_bytes == 4 * (2 * n + 64)
        assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim and res.workspace_bytes == 0
