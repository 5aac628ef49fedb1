"""``cube_program``'s flat row-by-row builder (``FAST_TILES``: ``_rows_of_tiles`` returns
every output tile's TileSpecs in one list, blocks cut from it by strided slices) gives the
reference per-tile closures' KernelSpec (``FAST_TILES = False``): equal specs and the same
sharing of Stage / GmRange objects, on random GEMMs and convolutions with one or several
K steps (merged L1 steps included), a batch, bias and residual, every cube dtype."""
from __future__ import annotations

import importlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npu_sim import PRESETS

from tests.perf.test_prep_cube_program import _sharing

cp = importlib.import_module("opsnn.matmul.common.cube_program")
ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


def _spec(fast: bool, td, dt, **kw):
    prev = cp.FAST_TILES
    cp.FAST_TILES = fast
    try:
        return cp.cube_program(td, "t", dt[0], dt[1], dt[2], **kw)
    finally:
        cp.FAST_TILES = prev


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chip_name=st.sampled_from(sorted(PRESETS)),
       dt=st.sampled_from([(2, 2, "float16"), (4, 4, "float32"), (1, 4, "int8"), (2, 4, "bfloat16")]),
       batch=st.integers(1, 40), m=st.integers(1, 3000), n=st.integers(1, 700),
       k=st.one_of(st.integers(1, 600), st.integers(1, 40000)), reuse=st.sampled_from([1.0, 2.25, 9.0]),
       max_steps=st.sampled_from([ct.MAX_CUBE_STEPS_PER_BLOCK, 4, 1]),
       bias=st.sampled_from([0, 2, 4]), residual=st.sampled_from([0, 2, 4]),
       epilogue=st.sampled_from([(), ("relu",)]))
def test_flat_rows_equal_reference(chip_name, dt, batch, m, n, k, reuse, max_steps, bias, residual, epilogue):
    chip = PRESETS[chip_name]
    try:
        td = ct.cube_tiling(chip, batch, m, n, k, dt[0], dt[1], dt[2], a_gm_reuse=reuse, max_steps_per_block=max_steps)
    except ct.AclnnError:
        return
    kw = dict(a_gm_reuse=reuse, bias_itemsize=bias, residual_itemsize=residual, epilogue=epilogue,
              args={"shape": [m, n, k]})
    ref, fast = _spec(False, td, dt, **kw), _spec(True, td, dt, **kw)
    assert fast == ref
    assert _sharing(fast) == _sharing(ref)
