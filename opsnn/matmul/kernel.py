"""Kernel half of the matmul family: numpy functional bodies.

The cube accumulates in fp32 (L0C) whatever the input dtype; FixPipe converts to the
output dtype on the way out. fp16/bf16 inputs are therefore multiplied in float32
here; float32 inputs in float32 (KEEP_DTYPE) or rounded to fp16 first (USE_FP16).
"""
from __future__ import annotations

import numpy as np

from ..base.memview import tensor_view, write_out


def matmul_body(a_t, b_t, out_t, bias_t=None, alpha=1.0, beta=1.0, trans_b=False, to_fp16=False):
    """Body factory: out = alpha * (a @ b) + beta * bias.
    Slots: a, b, out (Matmul) or bias, a, b, out (Addmm, CANN order)."""
    ia, ib, ic = (0, 1, None) if bias_t is None else (1, 2, 0)

    def make(addrs, ws):
        def body(mem):
            a = tensor_view(mem, addrs[ia], a_t).astype(np.float32)
            b = tensor_view(mem, addrs[ib], b_t).astype(np.float32)
            if to_fp16:
                a, b = a.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32)
            if trans_b:
                b = np.swapaxes(b, -1, -2)
            r = np.matmul(a, b)
            if alpha != 1.0:
                r *= np.float32(alpha)
            if bias_t is not None:
                bias = tensor_view(mem, addrs[ic], bias_t).astype(np.float32)
                r = r + np.float32(beta) * bias
            write_out(mem, addrs[-1], out_t, r)
        return body
    return make
