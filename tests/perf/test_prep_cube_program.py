"""``cube_program``'s row-by-row tile builder (``FAST_TILES``) gives the reference
per-tile closures' KernelSpec: equal specs (every block, TileSpec, Stage and GmRange,
L2 keys included) and the same sharing of GmRange / Stage objects between tiles, for
GEMMs with one and several K steps, merged L1 steps, a batch, a bias and a residual."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from npu_sim import get_chip

cp = importlib.import_module("opsnn.matmul.common.cube_program")
ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


def _spec(fast: bool, td, **kw):
    prev = cp.FAST_TILES
    cp.FAST_TILES = fast
    try:
        return cp.cube_program(td, "t", 2, 2, "float16", **kw)
    finally:
        cp.FAST_TILES = prev


def _sharing(spec) -> list:
    """Per stage slot of every tile in order: the index of the first equal-identity object."""
    seen: dict = {}
    out = []
    for blk in spec.blocks:
        for ts in blk.tiles:
            for st in ts.stages:
                out.append(seen.setdefault(id(st), len(seen)))
                for r in st.gm_ranges:
                    out.append(seen.setdefault(id(r), len(seen)))
    return out


def _cases():
    rng = np.random.default_rng(7)
    cases = [(1, 3136, 64, 576, {}), (4, 200, 40, 30, {}), (112, 49, 1, 9, {}), (1, 100, 300, 5000, {}),
             (1, 64, 64, 70000, {"max_steps_per_block": 4})]
    cases += [(int(rng.integers(1, 4)), *map(int, rng.integers(1, 2000, 3)), {}) for _ in range(6)]
    return cases


@pytest.mark.parametrize("batch,m,n,k,tkw", _cases())
@pytest.mark.parametrize("extra", [{}, {"bias_itemsize": 4}, {"residual_itemsize": 2, "bias_itemsize": 2},
                                   {"a_gm_reuse": 9.0}])
def test_fast_tiles_equal_reference(batch, m, n, k, tkw, extra):
    chip = get_chip("ascend910b2")
    reuse = extra.get("a_gm_reuse", 1.0)
    td = ct.cube_tiling(chip, batch, m, n, k, 2, 2, "float16", a_gm_reuse=reuse, **tkw)
    ref, fast = _spec(False, td, **extra), _spec(True, td, **extra)
    assert fast == ref
    assert _sharing(fast) == _sharing(ref)
