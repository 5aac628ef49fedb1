"""The cube tiling's memo (``opsnn.matmul.common.cube_tiling._MEMO``) changes no
decision: a cold search (memo emptied) and a warm one give equal tiling structs."""
from __future__ import annotations

import importlib

import numpy as np

from npu_sim import get_chip

ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


def test_memo_gives_the_cold_search_result():
    rng = np.random.default_rng(3)
    chip = get_chip("ascend910b2")
    cases = [(1, 512, 512, 512), (1, 8192, 8192, 8192), (4, 3136, 64, 576), (1, 49, 2048, 4608)]
    cases += [(int(rng.integers(1, 3)), *map(int, rng.integers(1, 3000, 3))) for _ in range(12)]
    for batch, m, n, k in cases:
        for reuse in (1.0, 9.0):
            ct._MEMO.clear()
            cold = ct.cube_tiling(chip, batch, m, n, k, 2, 2, "float16", a_gm_reuse=reuse)
            assert ct._MEMO
            warm = ct.cube_tiling(chip, batch, m, n, k, 2, 2, "float16", a_gm_reuse=reuse)
            assert warm == cold
            ct._MEMO.clear()
            assert ct.cube_tiling(chip, batch, m, n, k, 2, 2, "float16", a_gm_reuse=reuse) == cold
