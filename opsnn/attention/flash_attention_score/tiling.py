"""FlashAttentionScore tiling (host half): block sizes, core split, workspace, tile program.

Follows ops-nn's step order: platform facts (core counts, L1/L0A/L0B/L0C/UB sizes),
then the problem (B, N, Sq, Skv, D, Dv, dtype, mask kind), then the tiling struct, the
block_dim, the workspace and the key.

Work split. A *task* is one (batch, head, Sq block) triple: ``base_s_q`` query rows
stay resident while the kernel walks the Skv axis in ``base_s_kv`` blocks, keeping a
running row max ``m``, row sum ``l`` and an fp32 output accumulator (online softmax).
Tasks are dealt to blocks in contiguous ranges (``block_dim = min(cores, tasks)``).
For the causal sparse modes (2, 3) a KV block whose every position is masked for the
whole query block is skipped, as CANN's sparse kernels do.

Tile program. Each KV block is two tiles that pass through the same six pipes, in the
mixed (Cube + Vector) order of a separated-architecture FA kernel::

    QK tile: MTE2 K_j (+Q on the first block, + mask/pse tile) -> MTE1 Q, K_j -> CUBE S = Q K_j^T
             -> FIXPIPE S (fp32) to the GM workspace -> VECTOR online softmax update
             (scale, +pse, mask select, row max, exp, row sum, cast P) -> MTE3 P to workspace
    PV tile: MTE2 V_j + P + (the previous O partial) -> MTE1 P, V_j -> CUBE O_j = P V_j
             -> FIXPIPE O_j (fp32) to workspace -> VECTOR O = O * exp(m_old - m_new) + O_j
             (last block: O / l, cast) -> MTE3 (last block: O, softmaxMax, softmaxSum to GM)

With a queue depth of 2 the cube works on one tile while the vector unit works on the
previous one, which is how FA hides the softmax behind the matmuls. Limits of the
model (assumptions): the PV tile's cube stage does not wait for the QK tile's vector
stage (the pipeline only orders stages within a tile, pipes across tiles and the queue
slots), so the overlap is optimistic by up to one stage per KV block; workspace round
trips are written through to HBM (their read-backs hit L2).

Core type: on a separated chip (910B) the kernel is MIX: each block is one group of
one AIC + two AIVs (DESIGN.md section 4) running the fused program above; npu_sim
runs its MTE2/MTE1/CUBE/FIXPIPE stages on the AIC and its VECTOR/MTE3 stages on the
two AIVs, which share them. UB is declared per AIV (each AIV holds half the query
rows of a tile). On a coupled chip (310P), or an npu_sim without ``CoreType.MIX``,
it is an AIC kernel carrying the same stages (a coupled AI Core has both units); UB
is then checked here against ``chip.ub_bytes`` and recorded in the tiling data only.

GM traffic: every GM stage lists its operands as ``GmRange`` s with DMA run lengths
(one head's row of D elements is a run in the BSH/BSND/SBH layouts) and L2 keys:
K_j/V_j by (batch, kv head, block), so the query blocks and GQA heads that reuse them
hit L2; the workspace slots (S, P, O partial) by slot, so a read-back right after the
write hits L2 (writes still go through to HBM: npu_sim's write-through policy).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import IntEnum

from npu_sim import Architecture, ChipConfig
from npu_sim.program import BlockProgram, Buffer, CoreType, GmRange, KernelSpec, Pipe, Stage, TileSpec

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling import align_up, ceil_div

#: starting tile edges before shrinking to fit the buffers [assumption: typical FA
#: base blocks of 128 query rows x 128..256 key rows]
START_S_Q = 128
START_S_KV = 256
FRAC = 16  #: cube fractal edge
STAT_BYTES = 32  #: one fp32 row statistic padded to 8 floats (CANN's [B, N, Sq, 8] softmax outputs)


class FlashAttentionScoreTilingKey(IntEnum):
    """Kernel variant: which masking path the tile program takes."""

    DENSE = 0      #: no attenMask
    MASKED = 1     #: explicit attenMask (sparseMode 0/1)
    CAUSAL = 2     #: sparseMode 2/3: causal mask generated in-kernel, fully masked blocks skipped


@dataclass(frozen=True)
class FlashAttentionScoreTilingData:
    """Tiling struct (cf. ops-transformer FlashAttentionScoreTilingData).

    Problem: batch, head_num (Nq), kv_head_num, s_q, s_kv, d (Q/K head dim), d_v,
    itemsize (bytes per input element), has_pse, mask_kind (key).
    Split: base_s_q x base_s_kv tile edges; d_l0 head-dim elements per L0 load;
    q_blocks, kv_blocks per head; tasks = batch * head_num * q_blocks; tiles = KV
    blocks visited over all tasks (causal skipping applied); block_dim.
    Buffers (bytes per AIC / per AIV): l1, l0a, l0b, l0c, ub (per AIV, ``ub_rows``
    query rows each). workspace_per_block: S (fp32) + P + O partial (fp32), double-buffered.
    """

    batch: int
    head_num: int
    kv_head_num: int
    s_q: int
    s_kv: int
    d: int
    d_v: int
    itemsize: int
    has_pse: bool
    mask_kind: int
    base_s_q: int
    base_s_kv: int
    d_l0: int
    q_blocks: int
    kv_blocks: int
    tasks: int
    tiles: int
    block_dim: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    ub_bytes: int
    ub_rows: int
    workspace_per_block: int
    workspace_bytes: int


def mix_core_type(chip: ChipConfig) -> tuple[CoreType, bool]:
    """(core type, is_mix): CoreType.MIX (groups of one AIC + two AIVs) when npu_sim has
    it and the chip is separated; else AIC (a coupled AI Core has both units; module
    docstring)."""
    mix = getattr(CoreType, "MIX", None)
    if mix is not None and chip.architecture == Architecture.SEPARATED:
        return mix, True
    return CoreType.AIC, False


def _buffers(sq: int, skv: int, d: int, dv: int, item: int, bn: int, ub_rows: int, has_mask: bool,
             has_pse: bool, d_l0: int) -> dict[str, int]:
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
    return (b["l1"] <= chip.l1_bytes and b["l0a"] <= chip.l0a_bytes and b["l0b"] <= chip.l0b_bytes
            and b["l0c"] <= chip.l0c_bytes and b["ub"] <= chip.ub_bytes)


def _visible_kv_blocks(qi: int, base_s_q: int, s_q: int, base_s_kv: int, kv_blocks: int, offset: int | None) -> int:
    """KV blocks a query block visits: all, or (causal, ``offset`` = Skv - Sq or 0) those
    with at least one unmasked position; at least one so every row gets written."""
    if offset is None:
        return kv_blocks
    last_row = min((qi + 1) * base_s_q, s_q) - 1
    last_col = last_row + offset
    return max(1, min(kv_blocks, ceil_div(last_col + 1, base_s_kv) if last_col >= 0 else 1))


def flash_attention_tiling(chip: ChipConfig, *, batch: int, head_num: int, kv_head_num: int, s_q: int, s_kv: int,
                           d: int, d_v: int, itemsize: int, cube_dtype: str, has_pse: bool,
                           key: FlashAttentionScoreTilingKey, causal_offset: int | None, buffer_num: int = 2,
                           row_strided: bool = False, args: dict | None = None) -> tuple[KernelSpec, FlashAttentionScoreTilingData]:
    """Choose tile edges that fit every buffer, split tasks over cores and build the
    tile program (module docstring). ``row_strided``: Q/K/V rows of one head are not
    adjacent in GM (BSH/BSND/SBH layouts), so each row is its own DMA run of D
    elements. Raises AclnnError(561002) when even 16 x 16 tiles do not fit (e.g. a
    head dim too large for the chip's L1)."""
    core_type, is_mix = mix_core_type(chip)
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
    item = itemsize
    q_tail = s_q - (q_blocks - 1) * sq
    kv_tail = s_kv - (kv_blocks - 1) * skv
    mask_b = 1 if has_mask and key == FlashAttentionScoreTilingKey.MASKED else 0
    pse_b = item if has_pse else 0
    cast_pass = 0 if item == 4 else 1
    softmax_passes = 6 + (1 if has_pse else 0) + (1 if has_mask else 0) + cast_pass

    group = head_num // kv_head_num
    q_run = d * item if row_strided else 0
    k_run = d * item if row_strided else 0
    v_run = d_v * item if row_strided else 0

    def ws(nbytes: int, what: str) -> GmRange:
        # a core's workspace slot is written and read back within a few tiles: keyed,
        # so the read hits L2 (keys are per launch, shared by the cores' slots)
        return GmRange(nbytes, 0, ("FA_WS", what))

    def kv_tiles(rows: int, cols: int, first: bool, last: bool, kv: tuple[int, int, int]):
        """The QK^T and PV tiles of KV block ``kv`` = (batch, kv head, j)."""
        r16, c16 = align_up(rows, FRAC), align_up(cols, FRAC)
        s_bytes, p_bytes, o_bytes = rows * cols * 4, rows * cols * item, rows * d_v * 4
        k_bytes, v_bytes = cols * d * item, cols * d_v * item
        q_bytes = rows * d * item if first else 0
        side = rows * cols * (mask_b + pse_b)
        qk_in = [GmRange(k_bytes, k_run, ("K",) + kv)]
        if q_bytes:
            qk_in.append(GmRange(q_bytes, q_run))
        if side:
            qk_in.append(GmRange(side, cols * (mask_b + pse_b)))
        qk = (Stage(Pipe.MTE2, nbytes=k_bytes + q_bytes + side, gm_ranges=tuple(qk_in)),
              Stage(Pipe.MTE1, nbytes=(rows * d + cols * d) * item),
              Stage(Pipe.CUBE, macs=r16 * c16 * d_al, dtype=cube_dtype),
              Stage(Pipe.FIXPIPE, nbytes=s_bytes, gm_ranges=(ws(s_bytes, "S"),)),
              Stage(Pipe.VECTOR, vector_bytes=softmax_passes * s_bytes + 3 * rows * STAT_BYTES),
              Stage(Pipe.MTE3, nbytes=p_bytes, gm_ranges=(ws(p_bytes, "P"),)))
        out_bytes = rows * d_v * item + 2 * rows * STAT_BYTES if last else 0
        pv = (Stage(Pipe.MTE2, nbytes=v_bytes + s_bytes + p_bytes + o_bytes,
                    gm_ranges=(GmRange(v_bytes, v_run, ("V",) + kv), ws(s_bytes, "S"), ws(p_bytes, "P"),
                               ws(o_bytes, "O"))),
              Stage(Pipe.MTE1, nbytes=(rows * cols + cols * d_v) * item),
              Stage(Pipe.CUBE, macs=r16 * dv_al * c16, dtype=cube_dtype),
              Stage(Pipe.FIXPIPE, nbytes=o_bytes, gm_ranges=(ws(o_bytes, "O"),)),
              Stage(Pipe.VECTOR, vector_bytes=(2 + (1 + cast_pass if last else 0)) * o_bytes),
              Stage(Pipe.MTE3, nbytes=out_bytes,
                    gm_ranges=(GmRange(out_bytes, rows * d_v * item if row_strided else 0),) if last else ()))
        return qk, pv

    def task_tiles(task: int) -> tuple[list[tuple[tuple[Stage, ...], int]], int, int]:
        """Tiles of task (batch, head, Sq block); returns (tiles, KV blocks visited, rows)."""
        bh, qi = divmod(task, q_blocks)
        bi, head = divmod(bh, head_num)
        rows = q_tail if qi == q_blocks - 1 else sq
        n_kv = _visible_kv_blocks(qi, sq, s_q, skv, kv_blocks, causal_offset)
        seq = []
        for j in range(n_kv):
            cols = kv_tail if j == kv_blocks - 1 else skv
            qk, pv = kv_tiles(rows, cols, j == 0, j == n_kv - 1, (bi, head // group, j))
            seq += [(qk, 1), (pv, 1)]
        return seq, n_kv, rows

    per_block, extra = divmod(tasks, block_dim)
    blocks: list[BlockProgram] = []
    t = 0
    total_tiles = 0
    visible_macs = 0
    for b in range(block_dim):
        cnt = per_block + (1 if b < extra else 0)
        seq: list[tuple[tuple[Stage, ...], int]] = []
        for task in range(t, t + cnt):
            tiles, n_kv, rows = task_tiles(task)
            seq += tiles
            total_tiles += n_kv
            visible_macs += rows * min(n_kv * skv, s_kv) * (d + d_v)
        t += cnt
        blocks.append(BlockProgram(tuple(TileSpec(st, c) for st, c in _merge(seq))))
    ws_block = align_up(bn * (sq * skv * 4 + sq * skv * item + sq * dv_al * 4), 512)
    td = FlashAttentionScoreTilingData(
        batch, head_num, kv_head_num, s_q, s_kv, d, d_v, item, has_pse, int(key), sq, skv, d_l0, q_blocks, kv_blocks,
        tasks, total_tiles, block_dim, bufs["l1"], bufs["l0a"], bufs["l0b"], bufs["l0c"], bufs["ub"],
        ceil_div(sq, aiv_per_group), ws_block, ws_block * block_dim)
    buffers = {Buffer.L1: bufs["l1"], Buffer.L0A: bufs["l0a"], Buffer.L0B: bufs["l0b"], Buffer.L0C: bufs["l0c"]}
    if is_mix:
        buffers[Buffer.UB] = bufs["ub"]
    spec = KernelSpec("FlashAttentionScore", core_type, tuple(blocks), bn, buffers, int(key),
                      dict(args or {}, tiling=asdict(td), flops=2 * visible_macs, core_model="MIX" if is_mix else
                           "AIC+VECTOR stages (no MIX core type yet)"))
    return spec, td


def _merge(seq: list[tuple[tuple[Stage, ...], int]]) -> list[tuple[tuple[Stage, ...], int]]:
    """Merge adjacent runs of identical stage tuples into (stages, count)."""
    out: list[list] = []
    for st, c in seq:
        if out and out[-1][0] == st:
            out[-1][1] += c
        else:
            out.append([st, c])
    return [(st, c) for st, c in out]


def tiling_summary(td: FlashAttentionScoreTilingData) -> str:
    """One line for logs and traces: tile edges, tasks, tiles and cores."""
    return (f"{td.base_s_q}x{td.base_s_kv} tiles, {td.tasks} tasks, {td.tiles} KV blocks on {td.block_dim} cores, "
            f"workspace {td.workspace_bytes} B")


__all__ = ["FlashAttentionScoreTilingData", "FlashAttentionScoreTilingKey", "flash_attention_tiling",
           "mix_core_type", "tiling_summary"]
