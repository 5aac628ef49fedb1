"""The one-loop cube tiling search (candidates bounded as they are enumerated, step-cost
misses reusing pass 1's Cube term) chooses the straightforward reference search's tiling
(``reference_cube_tiling`` of test_cube_tiling_reference) on random GEMMs with the
fractional ``a_gm_reuse`` values convolutions give (kh*kw / (sh*sw): 2.25, 12.25, ...),
K around the L1 and K-fractal boundaries, both queue depths and every preset."""
from __future__ import annotations

import importlib
import zlib

import numpy as np
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError

from tests.perf.test_cube_tiling_reference import reference_cube_tiling

ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


def _cases(seed: int, n: int):
    rng = np.random.default_rng(seed)
    reuses = [1.0, 2.25, 9.0, 12.25, 49 / 4, 25 / 9, 1.7777777777777777]
    out = []
    for _ in range(n):
        k = int(rng.choice([int(rng.integers(1, 64)), int(rng.integers(1, 9000)), 16 * int(rng.integers(1, 600)) + 1]))
        out.append((int(rng.integers(1, 5)), int(rng.integers(1, 5000)), int(rng.integers(1, 2100)), k,
                    float(rng.choice(reuses))))
    return out


@pytest.mark.parametrize("chip_name", ["tiny", "ascend910b2", "ascend310p3"])
@pytest.mark.parametrize("dt", [(4, 4, "float32"), (2, 2, "float16"), (1, 4, "int8")])
def test_one_loop_search_matches_reference(chip_name, dt):
    chip = PRESETS[chip_name]
    ii, oi, cd = dt
    for batch, m, n, k, reuse in _cases(zlib.crc32(f"{chip_name}/{cd}".encode()), 12):
        for buffer_num in (2, 1):
            want = reference_cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num)
            ct._MEMO.clear()
            if want is None:
                with pytest.raises(AclnnError):
                    ct.cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num)
                continue
            got = ct.cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num)
            assert got == want, (chip_name, batch, m, n, k, reuse, buffer_num)
            # warm memo: the same decision
            assert ct.cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num) == want
