"""The fast cube tiling search (``opsnn.matmul.common.cube_tiling.cube_tiling``: step costs
memoised without the shape, block estimates done in arithmetic) chooses exactly the tiling
of the straightforward search it replaced, kept here as the reference: every candidate's
block estimated with ``estimate_tiles_ns`` over freshly built stages, no memo.

The grid covers matmul and convolution (implicit GEMM, ``a_gm_reuse`` > 1) shapes, every
cube dtype, the tiny / 910B2 / 310P3 presets, queue depths 1 and 2 and a small
``max_steps_per_block`` (merged L1 steps).
"""
from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest

from npu_sim import PRESETS, ChipConfig
from npu_sim.hardware.bandwidth import l2_read_bytes_per_ns, sustained_hbm_bytes_per_ns
from npu_sim.hardware.cost import estimate_tiles_ns, idle_stage_ns

from opsnn.base.tiling_base import align_up, ceil_div

ct = importlib.import_module("opsnn.matmul.common.cube_tiling")
FRAC = ct.FRAC


def _ref_candidates(chip: ChipConfig, m_al, n_al, k_al, item, k_frac, buffer_num):
    """The candidate enumeration of the reference search (every balanced edge pair)."""
    seen = set()
    for bm0 in (256, 128, 64, 32, 16):
        bm = align_up(ceil_div(m_al, ceil_div(m_al, bm0)), FRAC)
        for bn0 in (256, 128, 64, 32, 16):
            bn = align_up(ceil_div(n_al, ceil_div(n_al, bn0)), FRAC)
            if (bm, bn) in seen:
                continue
            seen.add((bm, bn))
            acc = bm * bn * 4
            l0c_buf = buffer_num if acc * buffer_num <= chip.l0c_bytes else 1
            if acc * l0c_buf > chip.l0c_bytes:
                continue
            base_k = min(k_al, chip.l0a_bytes // (buffer_num * bm * item),
                         chip.l0b_bytes // (buffer_num * bn * item)) // k_frac * k_frac
            if base_k < k_frac:
                continue
            k_max = chip.l1_bytes // (buffer_num * (bm + bn) * item) // base_k * base_k
            if k_max < base_k:
                continue
            kc_min = ceil_div(k_al, k_max)
            for kc in sorted({kc_min, kc_min + 1, kc_min + 2, 2 * kc_min, 4 * kc_min}):
                k_l1 = align_up(ceil_div(k_al, kc), k_frac)
                if kc > kc_min and (k_l1 < k_frac or ceil_div(k_al, k_l1) != kc):
                    continue
                yield bm, bn, base_k, k_l1, l0c_buf


def reference_cube_tiling(chip, batch, m, n, k, in_itemsize, out_itemsize, cube_dtype, *, a_gm_reuse=1.0,
                          buffer_num=2, max_steps_per_block=ct.MAX_CUBE_STEPS_PER_BLOCK):
    """The straightforward search: no memo, every stage built and costed per candidate.
    Returns the MatmulTilingData, or None when no tile fits."""
    k_frac = ct.k_fractal(cube_dtype)
    item = in_itemsize
    m_al, n_al, k_al = align_up(max(m, 1), FRAC), align_up(max(n, 1), FRAC), align_up(max(k, 1), k_frac)
    cores = chip.aic_count
    l2_bw, hbm_bw = l2_read_bytes_per_ns(chip), sustained_hbm_bytes_per_ns(chip)
    unique = (m * k / a_gm_reuse + k * n) * item * batch
    cands = []
    for bm, bn, bk, kl1, l0c_buf in _ref_candidates(chip, m_al, n_al, k_al, item, k_frac, buffer_num):
        tiles = batch * ceil_div(m_al, bm) * ceil_div(n_al, bn)
        rounds = ceil_div(tiles, cores)
        kc = ceil_div(k_al, kl1)
        mte2, mte1, cube, fix = ct._step_stages(bm, bn, kl1, item, out_itemsize, a_gm_reuse, cube_dtype, k_frac)
        core = estimate_tiles_ns(chip, (mte2, mte1, cube), rounds * kc, buffer_num) + idle_stage_ns(chip, fix)
        traffic = tiles * kc * mte2.nbytes
        hbm = unique if unique <= chip.l2_bytes // 2 else traffic
        est = max(core, traffic / l2_bw, hbm / hbm_bw)
        cands.append((est, (rounds, -min(tiles, cores), tiles * kc, -bm * bn), (bm, bn, bk, kl1, l0c_buf)))
    if not cands:
        return None
    fastest = min(c[0] for c in cands)
    best = min((c for c in cands if c[0] <= fastest * 1.03), key=lambda c: c[1])
    base_m, base_n, base_k, k_l1, l0c_buf = best[2]
    mt, nt, kc = ceil_div(m_al, base_m), ceil_div(n_al, base_n), ceil_div(k_al, k_l1)
    out_tiles = batch * mt * nt
    block_dim = min(cores, out_tiles)
    per_block = ceil_div(out_tiles, block_dim)
    g = 1
    if per_block * kc > max_steps_per_block:
        g = min(kc, ceil_div(per_block * kc, max(1, max_steps_per_block)))
    return ct.MatmulTilingData(batch, m, n, k, base_m, base_n, base_k, k_l1, block_dim, out_tiles,
                               buffer_num * (base_m + base_n) * k_l1 * item, l0c_buf * base_m * base_n * 4,
                               kc, g, l0c_buf)


#: (in itemsize, out itemsize, cube dtype) of every cube compute type
DTYPES = [(2, 2, "float16"), (2, 2, "bfloat16"), (4, 4, "float32"), (4, 4, "hf32"), (2, 4, "float16"),
          (1, 4, "int8")]
CHIPS = ["tiny", "ascend910b2", "ascend310p3"]


def _conv_gemms():
    """(batch=groups, M, N, K, a_gm_reuse) of ResNet/VGG/DenseNet/depthwise-style convolutions."""
    out = []
    for nb, hw, cin, cout, ksz, stride, groups in [(1, 56, 64, 64, 1, 1, 1), (1, 56, 64, 64, 3, 1, 1),
                                                     (1, 112, 3, 64, 7, 2, 1), (8, 28, 128, 512, 1, 1, 1),
                                                     (1, 14, 256, 256, 3, 2, 1), (1, 7, 512, 2048, 1, 1, 1),
                                                     (1, 224, 3, 64, 3, 1, 1), (1, 28, 32, 32, 3, 1, 32),
                                                     (2, 17, 96, 48, 5, 1, 2), (1, 7, 1024, 128, 1, 1, 1)]:
        ho = (hw + stride - 1) // stride
        out.append((groups, nb * ho * ho, cout // groups, (cin // groups) * ksz * ksz,
                    max(1.0, ksz * ksz / (stride * stride))))
    return out


def _matmul_gemms():
    rng = np.random.default_rng(17)
    out = [(1, 1, 768, 768, 1.0), (1, 512, 512, 512, 1.0), (1, 8192, 8192, 8192, 1.0), (12, 128, 128, 64, 1.0),
           (1, 49, 2048, 4608, 1.0), (1, 1, 1, 1, 1.0), (1, 4096, 11008, 4096, 1.0), (32, 1, 2048, 128, 1.0)]
    out += [(int(rng.integers(1, 4)), *map(int, rng.integers(1, 5000, 3)), 1.0) for _ in range(10)]
    return out


@pytest.mark.parametrize("chip_name", CHIPS)
def test_fast_search_matches_reference(chip_name):
    chip = PRESETS[chip_name]
    n_checked = 0
    for (batch, m, n, k, reuse), (ii, oi, cd) in itertools.product(_conv_gemms() + _matmul_gemms(), DTYPES):
        for buffer_num, max_steps in ((2, ct.MAX_CUBE_STEPS_PER_BLOCK), (1, ct.MAX_CUBE_STEPS_PER_BLOCK), (2, 8)):
            want = reference_cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num,
                                         max_steps_per_block=max_steps)
            for _ in range(2):  # cold memo entries, then warm ones
                if want is None:
                    with pytest.raises(ct.AclnnError):
                        ct.cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num,
                                       max_steps_per_block=max_steps)
                    continue
                got = ct.cube_tiling(chip, batch, m, n, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num,
                                     max_steps_per_block=max_steps)
                assert got == want, (chip_name, batch, m, n, k, reuse, cd, buffer_num, max_steps)
                n_checked += 1
    assert n_checked > 500


def test_memo_is_shared_across_shapes():
    """Two GEMMs differing only in M (same balanced tiles) reuse every step entry."""
    chip = PRESETS["ascend910b2"]
    ct._MEMO.clear()
    ct.cube_tiling(chip, 1, 4096, 512, 512, 2, 2, "float16")
    size = sum(len(v) for v in ct._MEMO.values())
    ct.cube_tiling(chip, 1, 8192, 512, 512, 2, 2, "float16")
    assert sum(len(v) for v in ct._MEMO.values()) == size
