"""FlashAttentionScore kernel half: the tile program from the tiling data, and the numpy
body.

Formula (CANN aclnnFlashAttentionScore docs):
    attention_out = Softmax(Mask(scale * (pse + query @ key^T), atten_mask)) @ value

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
is then checked by the tiling against ``chip.ub_bytes`` and recorded in the tiling
data only.

GM traffic: every GM stage lists its operands as ``GmRange`` s with DMA run lengths
(one head's row of D elements is a run in the BSH/BSND/SBH layouts) and L2 keys:
K_j/V_j by (batch, kv head, block), so the query blocks and GQA heads that reuse them
hit L2; the workspace slots (S, P, O partial) by slot, so a read-back right after the
write hits L2 (writes still go through to HBM: npu_sim's write-through policy).

Numpy body (online softmax). The body follows the tile program: the Skv axis is
walked in ``base_s_kv`` blocks and each block updates a running row max ``m``, row sum
``l`` and fp32 output accumulator, so the numbers carry the same rounding structure as the
tiled kernel (QK^T and PV accumulate in fp32 as the cube's L0C does; for fp16/bf16
inputs P is rounded to the input dtype before PV, as it is written to the cube).
Masked positions take the most negative float32, as CANN's select does, so a fully
masked row averages V uniformly unless innerPrecise = 2 zeroes it.
"""
from __future__ import annotations

from dataclasses import asdict

import numpy as np

from npu_sim import ChipConfig
from npu_sim.program import BlockProgram, Buffer, GmRange, KernelSpec, Pipe, Stage, TileSpec

from ...base.memview import tensor_view, write_out
from ...base.tiling_base import align_up
from .tiling_data import (FRAC, STAT_BYTES, FlashAttentionScoreTilingData, FlashAttentionScoreTilingKey,
                          mix_core_type, visible_kv_blocks)


def tile_program(td: FlashAttentionScoreTilingData, chip: ChipConfig, cube_dtype: str, *, causal_offset: int | None,
                 row_strided: bool = False, buffer_num: int = 2, args: dict | None = None) -> KernelSpec:
    """The kernel spec of a FlashAttentionScore tiled as ``td`` on ``chip`` (module
    docstring): MIX on a separated chip, else AIC. ``cube_dtype``: the cube-rate dtype
    name. ``causal_offset``: as given to the tiling. ``row_strided``: Q/K/V rows of one
    head are not adjacent in GM (BSH/BSND/SBH layouts), so each row is its own DMA run
    of D elements. ``args``: trace args; the tiling struct, FLOPs of the visible
    positions and the core model are added."""
    core_type, is_mix = mix_core_type(chip)
    head_num, kv_head_num, s_q, s_kv = td.head_num, td.kv_head_num, td.s_q, td.s_kv
    d, d_v, itemsize, has_pse = td.d, td.d_v, td.itemsize, td.has_pse
    has_mask = td.mask_kind != FlashAttentionScoreTilingKey.DENSE
    sq, skv, q_blocks, kv_blocks, block_dim = td.base_s_q, td.base_s_kv, td.q_blocks, td.kv_blocks, td.block_dim
    d_al, dv_al = align_up(d, FRAC), align_up(d_v, FRAC)
    tasks, bn = td.tasks, buffer_num
    item = itemsize
    q_tail = s_q - (q_blocks - 1) * sq
    kv_tail = s_kv - (kv_blocks - 1) * skv
    mask_b = 1 if has_mask and td.mask_kind == FlashAttentionScoreTilingKey.MASKED else 0
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
        n_kv = visible_kv_blocks(qi, sq, s_q, skv, kv_blocks, causal_offset)
        seq = []
        for j in range(n_kv):
            cols = kv_tail if j == kv_blocks - 1 else skv
            qk, pv = kv_tiles(rows, cols, j == 0, j == n_kv - 1, (bi, head // group, j))
            seq += [(qk, 1), (pv, 1)]
        return seq, n_kv, rows

    per_block, extra = divmod(tasks, block_dim)
    blocks: list[BlockProgram] = []
    t = 0
    visible_macs = 0
    for b in range(block_dim):
        cnt = per_block + (1 if b < extra else 0)
        seq: list[tuple[tuple[Stage, ...], int]] = []
        for task in range(t, t + cnt):
            tiles, n_kv, rows = task_tiles(task)
            seq += tiles
            visible_macs += rows * min(n_kv * skv, s_kv) * (d + d_v)
        t += cnt
        blocks.append(BlockProgram(tuple(TileSpec(st, c) for st, c in _merge(seq))))
    buffers = {Buffer.L1: td.l1_bytes, Buffer.L0A: td.l0a_bytes, Buffer.L0B: td.l0b_bytes, Buffer.L0C: td.l0c_bytes}
    if is_mix:
        buffers[Buffer.UB] = td.ub_bytes
    return KernelSpec("FlashAttentionScore", core_type, tuple(blocks), bn, buffers, td.mask_kind,
                      dict(args or {}, tiling=asdict(td), flops=2 * visible_macs, core_model="MIX" if is_mix else
                           "AIC+VECTOR stages (no MIX core type yet)"))


def _merge(seq: list[tuple[tuple[Stage, ...], int]]) -> list[tuple[tuple[Stage, ...], int]]:
    """Merge adjacent runs of identical stage tuples into (stages, count)."""
    out: list[list] = []
    for st, c in seq:
        if out and out[-1][0] == st:
            out[-1][1] += c
        else:
            out.append([st, c])
    return [(st, c) for st, c in out]


def to_bnsd(x: np.ndarray, layout: str, heads: int) -> np.ndarray:
    """View/copy ``x`` (in ``layout``) as [B, N, S, D]. ``heads`` is N (needed for BSH/SBH)."""
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, heads, h // heads).transpose(0, 2, 1, 3)
    if layout == "SBH":
        s, b, h = x.shape
        return x.reshape(s, b, heads, h // heads).transpose(1, 2, 0, 3)
    raise ValueError(f"unknown layout {layout!r}")


def from_bnsd(x: np.ndarray, layout: str) -> np.ndarray:
    """Inverse of :func:`to_bnsd`: [B, N, S, D] -> ``layout``."""
    b, n, s, d = x.shape
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        return x.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    if layout == "SBH":
        return x.transpose(2, 0, 1, 3).reshape(s, b, n * d)
    raise ValueError(f"unknown layout {layout!r}")


def causal_mask(s_q: int, s_kv: int, sparse_mode: int) -> np.ndarray:
    """Boolean [Sq, Skv] mask (True = masked) of sparseMode 2 (leftUpCausal: j > i)
    or 3 (rightDownCausal: j > i + Skv - Sq)."""
    off = 0 if sparse_mode == 2 else s_kv - s_q
    i = np.arange(s_q)[:, None]
    j = np.arange(s_kv)[None, :]
    return j > i + off


FILL = np.float32(np.finfo(np.float32).min)


def flash_attention_forward(q: np.ndarray, k: np.ndarray, v: np.ndarray, pse: np.ndarray | None,
                            masked: np.ndarray | None, scale: float, block_kv: int, p_dtype: np.dtype | None,
                            zero_invalid_rows: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Online-softmax attention on [B, N, Sq, D] / [B, Nkv, Skv, D] fp32 arrays.

    ``pse`` broadcasts to [B, N, Sq, Skv]; ``masked`` (bool, True = masked) too.
    Returns (out [B, N, Sq, Dv], row max [B, N, Sq], row sum [B, N, Sq]) in fp32.
    """
    b, n, s_q, _ = q.shape
    g = n // k.shape[1]
    if g > 1:
        k = np.repeat(k, g, axis=1)
        v = np.repeat(v, g, axis=1)
    s_kv = k.shape[2]
    m = np.full((b, n, s_q), -np.inf, np.float32)
    l = np.zeros((b, n, s_q), np.float32)
    acc = np.zeros((b, n, s_q, v.shape[3]), np.float32)
    sc = np.float32(scale)
    kt = k.swapaxes(-1, -2)
    # every step below writes into an array this loop owns (``s`` is the matmul result in
    # ``s_buf``, ``acc``/``l``/``pv`` are ours): the same float32 ufuncs as out-of-place, the
    # same bits; the QK^T and PV products go into two buffers reused across blocks (a fresh
    # array per block faults in new pages; the same GEMMs, so the same bits)
    s_buf = np.empty((b, n, s_q, min(block_kv, s_kv)), np.float32)
    pv = np.empty(acc.shape, np.float32)
    for j0 in range(0, s_kv, block_kv):
        j1 = min(j0 + block_kv, s_kv)
        s = np.matmul(q, kt[..., j0:j1], out=s_buf if j1 - j0 == s_buf.shape[-1] else None)
        if pse is not None:
            s = s + pse[..., j0:j1]   # not in place: pse may broadcast s to a larger shape
        s *= sc
        if masked is not None:
            mk = masked[..., j0:j1]
            if np.broadcast_shapes(mk.shape, s.shape) == s.shape:
                np.copyto(s, FILL, where=mk)
            else:
                s = np.where(mk, FILL, s)
        m_new = np.maximum(m, s.max(axis=-1))
        alpha = np.exp(m - m_new)
        np.subtract(s, m_new[..., None], out=s)
        p = np.exp(s, out=s)
        l *= alpha
        l += p.sum(axis=-1)
        if p_dtype is not None:
            p = p.astype(p_dtype).astype(np.float32)
        acc *= alpha[..., None]
        acc += np.matmul(p, v[..., j0:j1, :], out=pv)
        m = m_new
    out = np.divide(acc, l[..., None], out=acc)   # acc is ours: the same division in place
    if zero_invalid_rows and masked is not None:
        out = np.where(np.broadcast_to(masked, (b, n, s_q, s_kv)).all(axis=-1)[..., None], np.float32(0), out)
    return out, m, l


def fa_body(tensors: dict, *, layout: str, head_num: int, kv_head_num: int, scale: float, block_kv: int,
            sparse_mode: int, inner_precise: int, slot: dict[str, int]):
    """Body factory. ``tensors`` maps role -> aclTensor (query, key, value, pse, mask,
    softmax_max, softmax_sum, out); ``slot`` maps role -> executor slot index."""
    q_t = tensors["query"]
    half = None if q_t.np_dtype == np.float32 else q_t.np_dtype

    def make(addrs, ws):
        def body(mem):
            def read(role):
                return tensor_view(mem, addrs[slot[role]], tensors[role], writable=False)   # only read
            # float32 operands are read in place through their strides (the GEMMs see the
            # same values; BLAS packs its panels either way), other dtypes widened
            q = np.asarray(to_bnsd(read("query"), layout, head_num), np.float32)
            k = np.asarray(to_bnsd(read("key"), layout, kv_head_num), np.float32)
            v = np.asarray(to_bnsd(read("value"), layout, kv_head_num), np.float32)
            pse = read("pse").astype(np.float32) if "pse" in slot else None
            masked = None
            if "mask" in slot:
                if sparse_mode in (2, 3):
                    masked = causal_mask(q.shape[2], k.shape[2], sparse_mode)
                else:
                    masked = read("mask").astype(bool)
            out, m, l = flash_attention_forward(q, k, v, pse, masked, scale, block_kv, half, inner_precise == 2)
            write_out(mem, addrs[slot["out"]], tensors["out"], from_bnsd(out, layout))
            write_out(mem, addrs[slot["softmax_max"]], tensors["softmax_max"],
                      np.broadcast_to(m[..., None], m.shape + (8,)))
            write_out(mem, addrs[slot["softmax_sum"]], tensors["softmax_sum"],
                      np.broadcast_to(l[..., None], l.shape + (8,)))
        return body
    return make
