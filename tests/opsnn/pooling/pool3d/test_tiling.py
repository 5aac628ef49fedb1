"""3-D pooling tiling without a device: two separable passes, each tiled by the family's
2-D strategies; the workspace carries pass 1's output; the traffic of each pass is
derived independently here."""
from npu_sim import PRESETS
from opsnn.pooling.common.separable import pads6, passes, triple
from opsnn.pooling.pool3d.tiling import pool3d_tiling

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_pass_geometries_split_the_window():
    g_hw, g_d = passes((2, 3, 8, 9, 10), (3, 2, 2), (2, 1, 2), (1, 1, 1), pads6((1, 0, 1)), False)
    # pass 1: every depth slice of every (n, c): 2*3*8 planes of 9 x 10 with a 2 x 2 window
    assert (g_hw.planes, g_hw.h, g_hw.w, g_hw.kh, g_hw.kw) == (48, 9, 10, 2, 2)
    assert (g_hw.ho, g_hw.wo) == (8, 6)        # (9-2)//1+1, (10+2-2)//2+1
    # pass 2: [6, D=8, 8*6] with a 3 x 1 window along D
    assert (g_d.planes, g_d.h, g_d.w, g_d.kh, g_d.kw, g_d.wo) == (6, 8, 48, 3, 1, 48)
    assert g_d.ho == (8 + 2 - 3) // 2 + 1
    assert triple((2,)) == (2, 2, 2) and pads6((1, 2, 3, 4, 5, 6)) == (1, 2, 3, 4, 5, 6)


def test_max_tiling_workspace_and_traffic():
    g_hw, g_d = passes((1, 4, 6, 16, 16), (2, 2, 2), (2, 2, 2), (1, 1, 1), pads6((0,)), False)
    for chip in (TINY, B2):
        res = pool3d_tiling(chip, "MaxPool3dWithArgmax", g_hw, g_d, 2, 4)
        td = res.data
        assert res.strategy == "separable" and td.ws_item == 2 + 4
        n1 = 4 * 6 * 8 * 8                                # pass-1 outputs
        assert res.workspace_bytes == td.workspace_bytes == n1 * 6
        # pass 1 reads each 2-row band of every slice once (stride = kernel): the whole input
        assert td.pass_hw.in_bytes == 4 * 6 * 16 * 16 * 2
        assert td.pass_hw.out_bytes == n1 * 6
        # pass 2 reads the intermediate once and writes value + int32 index per output
        assert td.pass_d.in_bytes == n1 * 6 and td.pass_d.out_bytes == 4 * 3 * 8 * 8 * 6
        assert res.block_dim == max(td.pass_hw.vector.block_dim, td.pass_d.vector.block_dim) <= \
            chip.vector_core_count


def test_avg_tiling_keeps_fp32_partials():
    g_hw, g_d = passes((1, 2, 4, 8, 8), (3, 3, 3), (1, 1, 1), (1, 1, 1), pads6((1,)), True)
    res = pool3d_tiling(TINY, "AvgPool3d", g_hw, g_d, 2)
    assert res.data.ws_item == 4
    assert res.workspace_bytes == g_hw.planes * g_hw.ho * g_hw.wo * 4
    assert res.data.pass_d.in_bytes >= g_hw.planes * g_hw.ho * g_hw.wo * 4  # each partial read at least once
