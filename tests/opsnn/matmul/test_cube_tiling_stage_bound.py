"""The cube tiling search pruned by stage floors (``cube_tiling.STAGE_BOUND``: every
candidate bounded by its block estimate on floors of its MTE2, MTE1, Cube and FixPipe
terms) chooses exactly the tiling of the straightforward reference search
(``reference_cube_tiling`` of tests/perf/test_cube_tiling_reference.py: every candidate's
block estimated with ``estimate_tiles_ns`` over freshly built stages), and that of the
search pruned by the Cube term alone (``STAGE_BOUND = False``), on random GEMMs and
convolutions (fractional ``a_gm_reuse``), every preset, dtype and queue depth."""
from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npu_sim import PRESETS
from npu_sim.hardware.bandwidth import sustained_hbm_bytes_per_ns
from npu_sim.hardware.cost import idle_stage_ns, stage_cost
from opsnn.base.status import AclnnError

from tests.perf.test_cube_tiling_reference import reference_cube_tiling

ct = importlib.import_module("opsnn.matmul.common.cube_tiling")

DTYPES = [(2, 2, "float16"), (2, 2, "bfloat16"), (4, 4, "float32"), (4, 4, "hf32"), (2, 4, "float16"),
          (1, 4, "int8")]
#: kh*kw / (sh*sw) of common kernels and strides, and 1 (a matmul, a 1x1 conv)
REUSES = [1.0, 2.25, 9.0, 12.25, 49 / 4, 25 / 9, 16 / 9, 4.0, 25.0, 49.0]


def _search(flag: bool, chip, args, kw):
    """cube_tiling with STAGE_BOUND = ``flag`` on a cold memo, or None if it raises 561002."""
    old = ct.STAGE_BOUND
    ct.STAGE_BOUND = flag
    ct._MEMO.clear()
    try:
        return ct.cube_tiling(chip, *args, **kw)
    except AclnnError:
        return None
    finally:
        ct.STAGE_BOUND = old


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chip_name=st.sampled_from(sorted(PRESETS)), dt=st.sampled_from(DTYPES),
       batch=st.integers(1, 600), m=st.integers(1, 20000), n=st.integers(1, 3000),
       k=st.one_of(st.integers(1, 96), st.integers(1, 12000), st.integers(1, 800).map(lambda x: 16 * x + 1)),
       reuse=st.sampled_from(REUSES), buffer_num=st.sampled_from([2, 2, 1, 3]))
def test_pruned_search_matches_reference(chip_name, dt, batch, m, n, k, reuse, buffer_num):
    chip = PRESETS[chip_name]
    ii, oi, cd = dt
    if batch * m > 200000:   # keep the tile counts of a model's layers (depthwise: batch = groups)
        batch = max(1, 200000 // m)
    args, kw = (batch, m, n, k, ii, oi, cd), dict(a_gm_reuse=reuse, buffer_num=buffer_num)
    want = reference_cube_tiling(chip, *args, **kw)
    assert _search(True, chip, args, kw) == want
    assert _search(False, chip, args, kw) == want


@pytest.mark.parametrize("chip_name", sorted(PRESETS))
@given(bm=st.integers(1, 16).map(lambda x: 16 * x), bn=st.integers(1, 16).map(lambda x: 16 * x),
       kl1=st.integers(1, 256).map(lambda x: 16 * x), item=st.sampled_from([1, 2, 4]),
       reuse=st.sampled_from(REUSES))
@settings(max_examples=60, deadline=None)
def test_stage_floors_bound_the_stage_costs(chip_name, bm, bn, kl1, item, reuse):
    """The fixed ns of _stage_floors are those of every step's MTE2 / MTE1 stage, and the
    floors cube_tiling builds on them never exceed the stages' idle ns."""
    chip = PRESETS[chip_name]
    mte2, mte1 = ct._mte2_stage(bm, bn, kl1, item, reuse), ct._mte1_stage(bm, bn, kl1, item)
    m2_fixed, m1_fixed = ct._stage_floors({}, chip, item)
    assert stage_cost(chip, mte2).fixed_ns == m2_fixed
    assert stage_cost(chip, mte1).fixed_ns == m1_fixed
    hbm_bw, cyc = sustained_hbm_bytes_per_ns(chip), chip.ns_per_cycle
    step_bytes = int(bm * item * kl1 / reuse) + kl1 * bn * item
    m2 = max(step_bytes / chip.mte2_bytes_per_cycle * cyc, step_bytes / hbm_bw) + m2_fixed
    assert m2 <= idle_stage_ns(chip, mte2)
    assert (bm + bn) * item * kl1 / chip.mte1_bytes_per_cycle * cyc + m1_fixed <= idle_stage_ns(chip, mte1)
