"""Row-norm tiling shared by LayerNorm and RmsNorm, without a device: every row length
fits UB, and few long rows are split over the vector cores (moved from the LayerNorm
tests)."""
from __future__ import annotations

import pytest

from opsnn.norm.common.kernel import row_norm_kernels
from opsnn.norm.layer_norm.tiling import REGISTRY


@pytest.mark.parametrize("centre", [True, False], ids=["layer", "rms"])
def test_row_norm_tiling_fits_ub_for_every_row_length(centre):
    """Sweep row lengths, dtypes and affine/stat outputs on the tiny chip: the plan
    picks fused exactly when its UB need fits, and no kernel exceeds UB."""
    from npu_sim.chips.presets import get_chip
    chip = get_chip("tiny")
    for item, witem in ((4, 4), (2, 2), (2, 4)):
        for n_affine in (0, 1, 2):
            for d in list(range(1, 80, 7)) + [447, 448, 449, 583, 677, 1000, 2049, 5000, 70001]:
                specs, td = row_norm_kernels(REGISTRY, chip, 3, d, item, witem if n_affine else 0, n_affine,
                                             2 * item, centre, None, {})
                assert (td.strategy == "fused") == (td.ub_bytes_needed_fused <= chip.ub_bytes)
                assert td.chunk_elems * td.chunks_per_row >= d
                for s in specs:
                    assert all(v <= chip.ub_bytes for v in s.buffers.values()), (d, item, n_affine, s.buffers)


def test_multi_pass_splits_few_long_rows_over_the_cores():
    """One 65536-element fp16 row on ascend910b2: rather than 9 UB-sized chunks (9 of
    48 vector cores busy), phase 1 cuts it into 4 KiB chunks, 32 of them, one a core."""
    from npu_sim.chips.presets import get_chip
    chip = get_chip("ascend910b2")
    specs, td = row_norm_kernels(REGISTRY, chip, 1, 65536, 2, 2, 2, 4, True, None, {})
    assert td.strategy == "multi_pass" and td.chunk_elems == 2048 and td.chunks_per_row == 32
    assert [s.block_dim for s in specs] == [32, 32]
    _, many = row_norm_kernels(REGISTRY, chip, 4096, 65536, 2, 2, 2, 4, True, None, {})
    assert many.chunks_per_row == 9  # enough rows: the largest chunk that fits UB
