"""Kernel half of aclnnConvolution: the tile program from the tiling data, and the
numpy functional body.

Formula: out[n, co] = sum over (c, i, j) in co's group of
input_padded[n, c, y*sh + i*dh, x*sw + j*dw] * weight[co, c, i, j] (+ bias[co]).

Tile program: the implicit GEMM's cube program
(:func:`~opsnn.matmul.common.cube_program.cube_program`), with the feature map's MTE2
bytes divided by ``a_gm_reuse``; a bias is a one-off load of ``base_n`` fp32 values
into the BiasTable per output tile, counted on that tile's last MTE2 step.

The Cube runs convolution as an implicit GEMM (Load3D expands the feature map into
im2col rows on the fly) and accumulates in fp32 in L0C; FixPipe adds nothing but the
dtype conversion on the way out. The body mirrors that numerically: fp16/bf16 inputs
are widened to float32, the GEMM runs in float32 and the result is cast on write.

Speed matters (a whole ResNet-50 runs through this body), so:
  * 1x1 kernels without padding are a plain (batched) matmul on the feature map,
    strided first if the stride is > 1: no im2col at all;
  * everything else pads once into a float32 buffer (a per-thread scratch reused across
    bodies, as is the im2col matrix: :func:`_scratch`), takes a zero-copy
    ``sliding_window_view``, and makes one im2col copy laid out [G, Cg*kh*kw, N*Ho*Wo]
    so that the weights are used as stored ([G, Cout/G, Cg*kh*kw], no copy) and a
    single batched ``np.matmul`` (one BLAS GEMM per group) yields [G, Cout/G, N*Ho*Wo],
    which is already NCHW when N == 1;
  * depthwise convs (one input channel per group) skip the GEMM and accumulate
    kh*kw broadcast multiply-adds, which is faster than thousands of tiny GEMMs.
"""
from __future__ import annotations

import threading

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...common.epilogue_inplace import apply_in_place
from ...matmul.common.cube_math import round_operand
from ...matmul.common.cube_program import apply_epilogue, cube_program
from .tiling_data import ConvolutionTilingData


def tile_program(td: ConvolutionTilingData, args: dict, tiling_key: int, *, name: str = "Convolution",
                 epilogue: tuple[str, ...] = (), residual_itemsize: int = 0) -> KernelSpec:
    """The AIC kernel spec of a convolution tiled as ``td`` (module doc). ``args``:
    trace args (shapes, attrs, the GEMM); the cube tiling struct and FLOPs are added.
    ``epilogue``: FixPipe activations (graph mode; see ``cube_program``);
    ``residual_itemsize``: bytes per element of the residual operand read per output
    tile (0 = none; ``cube_program``)."""
    return cube_program(td.cube, name, td.in_itemsize, td.out_itemsize, td.cube_dtype,
                        a_gm_reuse=td.a_gm_reuse, tiling_key=tiling_key, args=args,
                        bias_itemsize=td.bias_itemsize, epilogue=epilogue, residual_itemsize=residual_itemsize)


#: largest scratch buffer kept between bodies (bytes); a bigger one is allocated per call
SCRATCH_MAX_BYTES = 256 << 20
#: reference switch (issue 17): an im2col matrix larger than this (bytes) is built and
#: multiplied in blocks of output rows of about this size (:func:`_gemm_by_rows`), so
#: the "cols" scratch stays small (VGG-19's first convolutions: 115 MB of fresh pages
#: otherwise) and each block is still in cache when the GEMM reads it; 0: one im2col
#: copy and one GEMM whatever the size, as before
IM2COL_BLOCK_BYTES = 8 << 20
_SCRATCH = threading.local()


def _scratch(slot: str, shape: tuple[int, ...]) -> np.ndarray:
    """A C-contiguous float32 ``shape`` array over a per-thread buffer kept for ``slot``
    ("pad": the padded input, "cols": the im2col matrix) and grown on demand, so a
    body's temporaries reuse pages already mapped instead of faulting in fresh ones
    (the im2col copy of VGG-19's first convolutions is 115 MB). Its contents are
    garbage: the caller overwrites every element. Nothing a body returns may view it."""
    size = int(np.prod(shape, dtype=np.int64))
    if size * 4 > SCRATCH_MAX_BYTES:
        return np.empty(shape, np.float32)
    buf = getattr(_SCRATCH, slot, None)
    if buf is None or buf.size < size:
        buf = np.empty(size, np.float32)
        setattr(_SCRATCH, slot, buf)
    return buf[:size].reshape(shape)


def _zero_border(xp: np.ndarray, pt: int, pb: int, pl: int, pr: int) -> None:
    """Zero the padding frame of ``xp`` [N, C, Hp, Wp] (top/bottom rows, left/right
    columns); the interior is written by the caller."""
    hp, wp = xp.shape[2], xp.shape[3]
    xp[:, :, :pt] = 0
    xp[:, :, hp - pb:] = 0
    xp[:, :, pt:hp - pb, :pl] = 0
    xp[:, :, pt:hp - pb, wp - pr:] = 0


def conv2d_nchw(x: np.ndarray, w: np.ndarray, stride, pads, dilation, groups: int,
                bias: np.ndarray | None = None, compute=None, out: np.ndarray | None = None) -> np.ndarray:
    """float32 conv of NCHW ``x`` with ``w`` [Cout, C/groups, kh, kw]; ``pads`` is
    (top, bottom, left, right). ``compute``: the Cube's compute type of fp32 operands
    (a ``CubeDtype``: FLOAT16 or HF32 round them first, ``round_operand``), or None.
    ``out``: an optional C-contiguous float32 [N, Cout, Ho, Wo] array sharing no memory
    with ``x``, ``w`` or ``bias`` (the caller checks; :func:`direct_out`): the GEMM
    writes straight into it where the layout allows (1x1 kernels, depthwise, or N == 1),
    else the result is copied in. Returns a float32 [N, Cout, Ho, Wo] array (``out``
    when given)."""
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    sh, sw = stride
    dh, dw = dilation
    pt, pb, pl, pr = pads
    g = groups
    cog = co // g
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    wf = round_operand(w.astype(np.float32, copy=False), compute)  # float32 weights: no copy
    if kh == 1 and kw == 1 and not (pt or pb or pl or pr):
        # 1x1 fast path: out[n, g] = W[g] @ x[n, g] over the (strided) pixels
        xs = x[:, :, ::sh, ::sw] if (sh > 1 or sw > 1) else x
        xs = xs[:, :, :ho, :wo]
        xf = round_operand(np.ascontiguousarray(xs, dtype=np.float32), compute)
        if out is not None:
            np.matmul(wf.reshape(g, cog, cg), xf.reshape(n, g, cg, ho * wo), out=out.reshape(n, g, cog, ho * wo))
            r = out
        else:
            r = np.matmul(wf.reshape(g, cog, cg), xf.reshape(n, g, cg, ho * wo))  # [N, G, Cog, HoWo]
            r = r.reshape(n, co, ho, wo)
    else:
        xp = _scratch("pad", (n, c, h + pt + pb, wd + pl + pr))
        _zero_border(xp, pt, pb, pl, pr)
        xp[:, :, pt:pt + h, pl:pl + wd] = x  # casts fp16/bf16 to float32 on the way
        xp = round_operand(xp, compute)
        ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1
        v = sliding_window_view(xp, (ekh, ekw), axis=(2, 3))  # [N, C, Hp-ekh+1, Wp-ekw+1, ekh, ekw]
        v = v[:, :, ::sh, ::sw, ::dh, ::dw][:, :, :ho, :wo]      # [N, C, Ho, Wo, kh, kw], zero-copy
        if cg == 1 and cog == 1:
            # depthwise: per-tap broadcast multiply-add
            if out is not None:
                out[...] = 0
            acc = out if out is not None else np.zeros((n, c, ho, wo), np.float32)
            for i in range(kh):
                for j in range(kw):
                    acc += v[:, :, :, :, i, j] * wf[:, 0, i, j].reshape(1, c, 1, 1)
            r = acc
        elif n == 1 and g == 1 and (blocks := _row_blocks(co, cg * kh * kw, ho, wo)):
            r = _gemm_by_rows(v, wf.reshape(co, cg * kh * kw), out, blocks)
        else:
            cols = _scratch("cols", (g, cg, kh, kw, n, ho, wo))
            cols[...] = v.reshape(n, g, cg, ho, wo, kh, kw).transpose(1, 2, 5, 6, 0, 3, 4)  # the one im2col copy
            cols = cols.reshape(g, cg * kh * kw, n * ho * wo)
            if out is not None and n == 1:  # [G, Cog, Ho*Wo] is already out's layout
                r = np.matmul(wf.reshape(g, cog, cg * kh * kw), cols, out=out.reshape(g, cog, ho * wo))
                r = out
            else:
                r = np.matmul(wf.reshape(g, cog, cg * kh * kw), cols)  # [G, Cog, N*Ho*Wo]
                r = r.reshape(co, n, ho, wo)
                r = r[:, 0][None] if n == 1 else r.transpose(1, 0, 2, 3)
    if bias is not None:
        r += bias.astype(np.float32).reshape(1, co, 1, 1)
    if out is not None and r is not out:
        out[...] = r
        r = out
    return r


#: smallest M*N*K of a block's GEMM: OpenBLAS computes smaller products with other
#: kernels (its "direct" and "small matrix" sgemm paths, below 28*512*512 = 7.3 M
#: multiply-adds), whose sums may round differently from the big one's
MIN_BLOCK_MACS = 1 << 23


def _row_blocks(co: int, k: int, ho: int, wo: int) -> list[tuple[int, int]] | None:
    """Output-row bounds ``[(r0, r1), ...]`` splitting a one-image GEMM of ``co`` x ``k``
    by ``ho * wo`` into near-equal blocks whose im2col rows take at most about
    :data:`IM2COL_BLOCK_BYTES` each, or None to keep one GEMM: the matrix is no larger
    than that, the switch is 0, or a block would fall below :data:`MIN_BLOCK_MACS`."""
    if not IM2COL_BLOCK_BYTES or k * ho * wo * 4 <= IM2COL_BLOCK_BYTES:
        return None
    nb = min(ho, -(-k * ho * wo * 4 // IM2COL_BLOCK_BYTES))
    if nb < 2 or co * k * (ho // nb) * wo < MIN_BLOCK_MACS:
        return None
    return [(i * ho // nb, (i + 1) * ho // nb) for i in range(nb)]


def _gemm_by_rows(v: np.ndarray, w2: np.ndarray, out: np.ndarray | None, blocks) -> np.ndarray:
    """The GEMM branch of :func:`conv2d_nchw` for one image and one group, by blocks of
    output rows (``blocks``, :func:`_row_blocks`): ``v`` the [1, C, Ho, Wo, kh, kw]
    window view, ``w2`` the [Cout, C*kh*kw] float32 weights. Each block's im2col rows
    are copied into the "cols" scratch and multiplied into its columns of the [Cout,
    Ho*Wo] result (a strided ``out=``, which BLAS takes as it is), so the scratch stays
    small and is still in cache when the GEMM reads it. Every output element is the
    same dot product over the same K, summed by the same BLAS kernel as in the one-GEMM
    form (``tests/perf/test_full4_conv_blocks.py`` compares the bytes). Returns the
    float32 [1, Cout, Ho, Wo] result (``out`` when given)."""
    _, c, ho, wo, kh, kw = v.shape
    co, k = w2.shape
    res = out.reshape(co, ho * wo) if out is not None else np.empty((co, ho * wo), np.float32)
    for r0, r1 in blocks:
        cols = _scratch("cols", (c, kh, kw, r1 - r0, wo))
        cols[...] = v[0, :, r0:r1].transpose(0, 3, 4, 1, 2)          # [C, kh, kw, rows, Wo]
        np.matmul(w2, cols.reshape(k, (r1 - r0) * wo), out=res[:, r0 * wo:r1 * wo])
    return out if out is not None else res.reshape(1, co, ho, wo)


def direct_out(ov: np.ndarray, *reads) -> np.ndarray | None:
    """``ov`` (an output's device view) if a body may compute straight into it: float32,
    C-contiguous and sharing no memory with any of ``reads`` (the input views the body
    reads, None skipped; a residual read after the GEMM must not be overwritten by it).
    None otherwise (compute into a fresh array, then write_out)."""
    if ov.dtype != np.float32 or not ov.flags.c_contiguous:
        return None
    if any(x is not None and np.may_share_memory(ov, x) for x in reads):
        return None
    return ov


def conv_body_from(in_t, w_t, bias_t, out_t, compute_fn, act=None, res_t=None, direct=False):
    """Body factory around ``compute_fn(x, w, bias) -> float32 result`` (numpy views of
    the slots input, weight, [bias,] [residual,] output); ``act``: the FixPipe epilogue
    (activation, alpha, beta) applied before the write (graph mode), after adding the
    residual ``res_t`` (an NCHW tensor of the output's shape) when given. ``direct``:
    ``compute_fn`` also takes ``out=`` (a float32 output view, :func:`direct_out`) and
    writes its result there, so a float32 output is not copied once more."""
    def make(addrs, ws):
        def body(mem):
            if out_t.numel == 0:
                return
            # read-only views: a weight shared with its host constant stays shared (no copy)
            x = tensor_view(mem, addrs[0], in_t, writable=False)
            w = tensor_view(mem, addrs[1], w_t, writable=False)
            b = tensor_view(mem, addrs[2], bias_t, writable=False) if bias_t is not None else None
            res = tensor_view(mem, addrs[-2], res_t, writable=False) if res_t is not None else None
            ov = direct_out(tensor_view(mem, addrs[-1], out_t), x, w, b, res) if direct else None
            r = compute_fn(x, w, b) if ov is None else compute_fn(x, w, b, out=ov)
            if res is not None:
                if ov is None:
                    r = r + res.astype(np.float32)
                else:
                    np.add(r, res.astype(np.float32), out=r)
            if act is not None:
                if ov is not None and apply_in_place(r, act):
                    return  # the epilogue applied where the result sits, in the output
                r = apply_epilogue(r, *act)
            elif ov is not None:
                return  # the result already sits in the output
            write_out(mem, addrs[-1], out_t, r)
        return body
    return make


def conv_body(in_t, w_t, bias_t, out_t, stride, pads, dilation, groups, compute=None, act=None, res_t=None):
    """Body factory. Slots: input, weight, [bias,] [residual,] output. ``compute``: as
    for :func:`conv2d_nchw`. ``act``: (activation, alpha, beta) FixPipe applies to the
    fp32 result before the write (graph mode), after adding ``res_t`` if given."""
    return conv_body_from(in_t, w_t, bias_t, out_t,
                          lambda x, w, b, out=None: conv2d_nchw(x, w, stride, pads, dilation, groups, b, compute,
                                                                out),
                          act, res_t, direct=True)
