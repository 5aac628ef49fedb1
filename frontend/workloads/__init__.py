"""Built-in transformer workloads from the Python API (no ONNX): one encoder layer and
one decoder step with a KV cache, sizes configurable, for experiments.

    from acl_runtime.api import Session
    from frontend.workloads import PRESETS, encoder_layer, decoder_step

    with Session("ascend910b2", timing_only=True) as s:
        wl = decoder_step(s, PRESETS["llama-7b"], batch=1, cache_len=2048)
        res = wl.run()                 # WorkloadResult: latency_ns, per-op breakdown
    print(res.latency_ns, [(o.label, o.device_ns) for o in res.ops])

or ``python -m frontend.workloads decoder --preset llama-7b --cache-len 2048``, or
:func:`simulate` (opens and closes the Session itself).

Modules: :mod:`.config` (TransformerConfig, PRESETS), :mod:`.layer` (LayerWorkload,
its PreparedProgram, WorkloadResult), :mod:`.builders` (encoder_layer, decoder_step),
:mod:`.reference` (float64 references), :mod:`.cli` (simulate, the table, main),
:mod:`.encoder_onnx` (the encoder layer as an exported ONNX graph, for graph vs eager mode).

Every op is an opsnn two-phase call: phase 1 once when the layer is built (executors
made repeatable, collected in a :class:`frontend.program.PreparedProgram`), phase 2 on
one stream per :meth:`LayerWorkload.run`, with one shared workspace sized for the largest op (ops on one stream run in order). In a
``timing_only`` session nothing holds data, so a 7B-class layer costs no host memory.

Encoder layer (BERT, post-LayerNorm; Devlin et al. 2019), x [B, S, H]:
    q/k/v = x W{q,k,v} + b (aclnnAddmm on [B*S, H]); a = FlashAttentionScore(q, k, v,
    BSH, headNum N, scale 1/sqrt(D), padding mask [B, 1, S, S] from ``lengths``);
    x1 = LayerNorm(x + a W_o + b_o); y = LayerNorm(x1 + Gelu(x1 W_1 + b_1) W_2 + b_2).
Decoder step (LLaMA-style, pre-RMSNorm, SiLU-gated FFN; no RoPE: there is no rotary
aclnn op here), x [B, 1, H] at position p = ``cache_len``:
    h = RmsNorm(x); q = h W_q; k = h W_k; v = h W_v (kv heads may be fewer: GQA);
    k, v are written into the caches [B, S_max, H_kv] at row p (aclnnCast into a strided
    view of the cache); a = FlashAttentionScore(q, K[:, :p+1], V[:, :p+1], BSH);
    x1 = x + a W_o; y = x1 + (Silu(h2 W_g) * (h2 W_u)) W_d with h2 = RmsNorm(x1).

Presets (sizes only; weights are seeded random, scaled 1/sqrt(fan_in)):
  bert-base: H 768, 12 heads, FFN 3072, GELU, LayerNorm eps 1e-12 (Devlin et al. 2019, BERT-base)
  llama-7b:  H 4096, 32 heads, FFN 11008, SiLU-gated, RMSNorm eps 1e-6 (LLaMA 7B: Touvron et al.
             2023; FFN width from the released 7B configuration)
"""
from __future__ import annotations

from ..model_zoo import minilm_model_path
from .builders import decoder_step, encoder_layer
from .cli import main, print_result, simulate
from .config import PRESETS, TransformerConfig
from .layer import LayerWorkload, OpTime, WorkloadResult
from .reference import decoder_step_reference, encoder_layer_reference

__all__ = ["PRESETS", "TransformerConfig", "LayerWorkload", "OpTime", "WorkloadResult", "encoder_layer",
           "decoder_step", "encoder_layer_reference", "decoder_step_reference", "simulate", "print_result", "main",
           "minilm_model_path"]
