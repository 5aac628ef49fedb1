"""Layer sizes of the built-in transformer workloads and the presets (sizes only).

  bert-base: H 768, 12 heads, FFN 3072, GELU, LayerNorm eps 1e-12 (Devlin et al. 2019, BERT-base)
  llama-7b:  H 4096, 32 heads, FFN 11008, SiLU-gated, RMSNorm eps 1e-6 (LLaMA 7B: Touvron et al.
             2023; FFN width from the released 7B configuration)
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class TransformerConfig:
    """Layer sizes. hidden = heads * head_dim; kv_heads divides heads (GQA when fewer).
    ``ffn_kind``: "gelu" (up, GELU, down) or "silu_gated" (gate, up, SiLU(gate)*up, down).
    ``norm``: "layernorm" (with bias) or "rmsnorm". ``dtype``: numpy dtype name."""

    name: str
    hidden: int
    heads: int
    ffn: int
    ffn_kind: str = "gelu"
    norm: str = "layernorm"
    kv_heads: int | None = None
    eps: float = 1e-12
    dtype: str = "float16"
    bias: bool = True

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def kv_hidden(self) -> int:
        return (self.kv_heads or self.heads) * self.head_dim

    def with_(self, **kw) -> "TransformerConfig":
        """A copy with fields replaced (e.g. ``dtype="float32"``)."""
        return replace(self, **kw)


PRESETS: dict[str, TransformerConfig] = {
    "bert-base": TransformerConfig("bert-base", 768, 12, 3072, "gelu", "layernorm", None, 1e-12, "float16", True),
    "llama-7b": TransformerConfig("llama-7b", 4096, 32, 11008, "silu_gated", "rmsnorm", None, 1e-6, "float16", False),
}
