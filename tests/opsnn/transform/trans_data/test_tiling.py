"""TransData tiling without a device: packed shapes, C0 per dtype, bytes, block_dim."""
import math

import pytest

from npu_sim import PRESETS
from opsnn.transform.trans_data.infershape import (NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0,
                                                   c0_for_itemsize, fractal_z_shape, nc1hwc0_shape)
from opsnn.transform.trans_data.tiling import trans_data_tiling
from opsnn.transform.trans_data.tiling_data import TransDataTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_c0_is_32_bytes_of_channels():
    assert (c0_for_itemsize(2), c0_for_itemsize(4), c0_for_itemsize(1)) == (16, 8, 32)
    with pytest.raises(ValueError):
        c0_for_itemsize(3)


def test_packed_shapes_pad_channels_to_whole_slices():
    assert nc1hwc0_shape((2, 3, 5, 7), 16) == (2, 1, 5, 7, 16)
    assert nc1hwc0_shape((1, 64, 4, 4), 16) == (1, 4, 4, 4, 16)
    assert nc1hwc0_shape((1, 17, 1, 1), 8) == (1, 3, 1, 1, 8)
    # [Cout, Cin, kh, kw] = [20, 3, 7, 7], fp16: C1 = 1, N1 = 2 blocks of 16 output channels
    assert fractal_z_shape((20, 3, 7, 7), 16) == (49, 2, 16, 16)


@pytest.mark.parametrize("kind,key", [(NCHW_TO_NC1HWC0, TransDataTilingKey.NCHW_TO_NC1HWC0),
                                      (NC1HWC0_TO_NCHW, TransDataTilingKey.NC1HWC0_TO_NCHW),
                                      (NCHW_TO_FRACTAL_Z, TransDataTilingKey.NCHW_TO_FRACTAL_Z)])
def test_bytes_are_the_plain_and_the_padded_side(kind, key):
    shape = (1, 3, 224, 224) if kind != NCHW_TO_FRACTAL_Z else (64, 3, 7, 7)
    for chip in (TINY, B2):
        res = trans_data_tiling(chip, kind, shape, 2, 16)
        td, v = res.data, res.data.vector
        plain = math.prod(shape) * 2
        padded = math.prod(td.packed) * 2
        assert res.tiling_key == key and res.workspace_bytes == 0 and res.strategy == "vector_transpose"
        assert (td.src_bytes, td.dst_bytes) == ((padded, plain) if kind == NC1HWC0_TO_NCHW else (plain, padded))
        assert padded > plain                        # 3 channels padded to 16
        i, o, vec = td.unit_bytes()
        assert v.total_units == math.prod(td.packed) and vec == 2
        assert i * v.total_units == pytest.approx(td.src_bytes) and o * v.total_units == pytest.approx(td.dst_bytes)
        assert res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes


def test_channels_already_whole_slices_move_the_same_bytes_both_sides():
    td = trans_data_tiling(B2, NCHW_TO_NC1HWC0, (1, 64, 56, 56), 4, 8).data
    assert td.src_bytes == td.dst_bytes == 64 * 56 * 56 * 4


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        trans_data_tiling(TINY, "NHWC->NCHW", (1, 1, 1, 1), 2, 16)
