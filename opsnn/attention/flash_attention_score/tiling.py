"""FlashAttentionScore tiling (host half): block sizes, core split, workspace; no device.

Follows ops-nn's step order: platform facts (core counts, L1/L0A/L0B/L0C/UB sizes),
then the problem (B, N, Sq, Skv, D, Dv, dtype, mask kind), then the tiling struct, the
block_dim, the workspace and the key. One strategy, ``flash``; the tile program is
built from the struct by ``kernel.py``.

Tile edges: ``base_s_q x base_s_kv`` from START_S_Q x START_S_KV (clipped to the
16-aligned sequence lengths), halved -- Skv first while it is at least Sq -- until L1
(Q tile, K/V blocks, P, double-buffered), L0A/L0B/L0C and the UB of the vector half
(S in fp32, P, mask and pse tiles, the O accumulator and partial, the row statistics)
fit.

Work split. A *task* is one (batch, head, Sq block) triple: ``base_s_q`` query rows
stay resident while the kernel walks the Skv axis in ``base_s_kv`` blocks, keeping a
running row max ``m``, row sum ``l`` and an fp32 output accumulator (online softmax).
Tasks are dealt to blocks in contiguous ranges (``block_dim = min(cores, tasks)``).
For the causal sparse modes (2, 3) a KV block whose every position is masked for the
whole query block is skipped, as CANN's sparse kernels do.

Workspace: per block, S (fp32) + P + O partial (fp32) tiles, double-buffered, rounded
up to 512 B; times block_dim.
"""
from __future__ import annotations

from npu_sim import Architecture, ChipConfig

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import TilingResult, align_up, ceil_div
from .tiling_data import (FRAC, STAT_BYTES, START_S_KV, START_S_Q, FlashAttentionScoreTilingData,
                          FlashAttentionScoreTilingKey, visible_kv_blocks)


def _buffers(sq: int, skv: int, d: int, dv: int, item: int, bn: int, ub_rows: int, has_mask: bool,
             has_pse: bool, d_l0: int) -> dict[str, int]:
    """Bytes of each buffer for ``sq`` x ``skv`` tiles (head dims ``d``/``dv`` aligned,
    ``bn`` queue depth): L1, L0A, L0B, L0C per AIC and UB per AIV (``ub_rows`` rows)."""
    ub_r = ub_rows
    l1 = (sq * d + bn * skv * (d + dv) + bn * sq * skv) * item
    l0a = bn * sq * max(d_l0, min(skv, 128)) * item
    l0b = bn * skv * max(d_l0, min(dv, 128)) * item
    l0c = bn * sq * max(skv, dv) * 4
    ub = (bn * ub_r * skv * 4            # S tile in (fp32)
          + bn * ub_r * skv * item         # P tile out
          + (bn * ub_r * skv if has_mask else 0)          # mask tile (1 B)
          + (bn * ub_r * skv * item if has_pse else 0)     # pse tile
          + 2 * ub_r * dv * 4              # O accumulator + O partial in (fp32)
          + 3 * ub_r * STAT_BYTES)         # m, l, exp(m_old - m_new)
    return {"l1": l1, "l0a": l0a, "l0b": l0b, "l0c": l0c, "ub": ub}


def _fits(chip: ChipConfig, b: dict[str, int]) -> bool:
    """True when every buffer of :func:`_buffers` fits the chip's."""
    return (b["l1"] <= chip.l1_bytes and b["l0a"] <= chip.l0a_bytes and b["l0b"] <= chip.l0b_bytes
            and b["l0c"] <= chip.l0c_bytes and b["ub"] <= chip.ub_bytes)


def flash_attention_tiling(chip: ChipConfig, *, batch: int, head_num: int, kv_head_num: int, s_q: int, s_kv: int,
                           d: int, d_v: int, itemsize: int, has_pse: bool, key: FlashAttentionScoreTilingKey,
                           causal_offset: int | None, buffer_num: int = 2) -> TilingResult:
    """Choose tile edges that fit every buffer and split tasks over cores (module
    docstring). ``itemsize``: bytes per query/key/value element. ``causal_offset``:
    None, or (causal key) the diagonal offset, 0 for sparseMode 2 and Skv - Sq for 3.
    Returns a :class:`TilingResult` (strategy "flash", key ``key``, workspace
    ``workspace_bytes``) whose ``data`` is a :class:`FlashAttentionScoreTilingData`.
    Raises AclnnError(561002) when even 16 x 16 tiles do not fit (e.g. a head dim too
    large for the chip's L1)."""
    aiv_per_group = 2 if chip.architecture == Architecture.SEPARATED else 1
    has_mask = key != FlashAttentionScoreTilingKey.DENSE
    sq = min(START_S_Q, align_up(s_q, FRAC))
    skv = min(START_S_KV, align_up(s_kv, FRAC))
    d_al, dv_al = align_up(d, FRAC), align_up(d_v, FRAC)
    bn = buffer_num
    while True:
        d_l0 = min(d_al, chip.l0a_bytes // (bn * sq * itemsize), chip.l0b_bytes // (bn * skv * itemsize))
        d_l0 = d_l0 // FRAC * FRAC
        ub_rows = ceil_div(sq, aiv_per_group)
        bufs = _buffers(sq, skv, d_al, dv_al, itemsize, bn, ub_rows, has_mask, has_pse, max(d_l0, FRAC))
        if d_l0 >= FRAC and _fits(chip, bufs):
            break
        if skv > FRAC and skv >= sq:
            skv = align_up(skv // 2, FRAC)
        elif sq > FRAC:
            sq = align_up(sq // 2, FRAC)
        else:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                             f"aclnnFlashAttentionScore: a {FRAC}x{FRAC} tile with head dims D={d}, Dv={d_v} "
                             f"does not fit {chip.name}'s buffers (needs {bufs}, has L1 {chip.l1_bytes}, "
                             f"L0A {chip.l0a_bytes}, L0B {chip.l0b_bytes}, L0C {chip.l0c_bytes}, UB {chip.ub_bytes})")
    q_blocks, kv_blocks = ceil_div(s_q, sq), ceil_div(s_kv, skv)
    tasks = batch * head_num * q_blocks
    block_dim = min(chip.aic_count, tasks)
    # KV blocks visited over all tasks (every (batch, head) walks the same query blocks)
    total_tiles = batch * head_num * sum(visible_kv_blocks(qi, sq, s_q, skv, kv_blocks, causal_offset)
                                         for qi in range(q_blocks))
    ws_block = align_up(bn * (sq * skv * 4 + sq * skv * itemsize + sq * dv_al * 4), 512)
    td = FlashAttentionScoreTilingData(
        batch, head_num, kv_head_num, s_q, s_kv, d, d_v, itemsize, has_pse, int(key), sq, skv, d_l0, q_blocks,
        kv_blocks, tasks, total_tiles, block_dim, bufs["l1"], bufs["l0a"], bufs["l0b"], bufs["l0c"], bufs["ub"],
        ceil_div(sq, aiv_per_group), ws_block, ws_block * block_dim)
    return TilingResult("flash", int(key), block_dim, td.workspace_bytes, td, ("flash",))


def tiling_summary(td: FlashAttentionScoreTilingData) -> str:
    """One line for logs and traces: tile edges, tasks, tiles and cores."""
    return (f"{td.base_s_q}x{td.base_s_kv} tiles, {td.tasks} tasks, {td.tiles} KV blocks on {td.block_dim} cores, "
            f"workspace {td.workspace_bytes} B")
