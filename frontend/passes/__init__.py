"""Graph mode: the rewrites a graph compiler (ATC, or GE in graph mode) applies
before lowering, as small named passes in the order they run.

``npu-sim run --mode graph`` (the CLI default for ONNX models) runs :data:`PASSES` on
the folded graph, ``--mode eager`` runs none of them (op by op, as PyTorch eager
with torch_npu: one aclnn kernel per ONNX node). ``--passes`` lists them and
``--disable-pass NAME`` turns one off. The attention rewrite
(:mod:`frontend.fusion`) is not one of them: it runs at load time in both modes
(``--no-fuse`` turns it off), so eager results stay those of earlier releases.

Every pass rewrites ``graph.nodes`` (and may add ``graph.constants``) in place,
keeps the numbers (outputs match the reference to float32 rounding), and returns
how many rewrites it made. Fused nodes carry ``attrs["fused"]``, the ONNX op types
they replace, which the fused kernels record in their trace ``args["fused"]``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable, Iterable

from ..graph import Graph, Node
from .add_rms_norm import fuse_add_rms_norm
from .batchnorm import fold_batchnorm
from .dequant import fuse_dequant_epilogue
from .elementwise import fuse_elementwise
from .epilogue import fuse_cube_epilogue
from .formats import keep_nc1hwc0
from .rms_norm import fuse_rms_norm
from .rotary import fuse_rotary
from .swiglu import fuse_swiglu

MODES = ("graph", "eager")


@dataclass(frozen=True)
class Pass:
    """One named graph rewrite: ``run(graph) -> rewrites made``; ``doc`` one line."""

    name: str
    doc: str
    run: Callable[[Graph], int]


#: the graph-mode passes, in the order the compiler applies them
PASSES: tuple[Pass, ...] = (
    Pass("fold_batchnorm", "inference BatchNormalization folded into the preceding Conv/Gemm weights and bias",
         fold_batchnorm),
    Pass("fuse_dequant_epilogue", "DequantizeLinear -> MatMul [-> Add] -> QuantizeLinear as one int8 Cube GEMM "
         "whose per-channel dequant/requant FixPipe applies (aclnnQuantMatmulV4)", fuse_dequant_epilogue),
    Pass("fuse_cube_epilogue",
         "bias, a residual Add and Relu/LeakyRelu/Clip after a Conv/MatMul/Gemm, applied as L0C drains to GM",
         fuse_cube_epilogue),
    Pass("fuse_rms_norm", "decomposed RMSNorm (Pow/ReduceMean/Add/Sqrt/Div/Mul) as one aclnnRmsNorm", fuse_rms_norm),
    Pass("fuse_add_rms_norm", "residual Add feeding RMSNormalization as one aclnnAddRmsNorm (the sum kept as xOut)",
         fuse_add_rms_norm),
    Pass("fuse_swiglu", "silu(a) * b of a Split or of two MatMuls over one input as one aclnnSwiGlu",
         fuse_swiglu),
    Pass("fuse_rotary", "rotate-half rotary embedding (Slice/Neg/Concat/Mul/Add) as one aclnnApplyRotaryPosEmb",
         fuse_rotary),
    Pass("fuse_elementwise", "maximal pointwise chains (one output) as one vector kernel, intermediates in UB",
         fuse_elementwise),
    Pass("keep_nc1hwc0", "2-D convolutions on NC1HWC0/FRACTAL_Z, TransData only at the edges of the 5-D regions",
         keep_nc1hwc0),
)


def pass_names() -> list[str]:
    """Names of :data:`PASSES`, in order."""
    return [p.name for p in PASSES]


def _copy_node(n: Node) -> Node:
    """A copy of ``n`` that a pass may rewrite without touching the source graph: new
    input / output lists and attrs dict (fused ``members`` copied the same way); attr
    values are shared (passes replace them, never change them in place). Several times
    cheaper than ``copy.deepcopy`` of every node (DenseNet-121: 1-13 ms against 45-64 ms)."""
    attrs = dict(n.attrs)
    if "members" in attrs:
        attrs["members"] = [_copy_node(m) for m in attrs["members"]]
    return Node(n.op_type, n.name, list(n.inputs), list(n.outputs), attrs)


def apply_passes(graph: Graph, mode: str = "graph", disabled: Iterable[str] = ()) -> tuple[Graph, dict[str, int]]:
    """The graph to lower in ``mode`` and the rewrites each pass made (name -> count).
    ``eager``: ``graph`` itself, untouched. ``graph``: a copy (nodes, attrs and the
    constants dict; arrays shared) rewritten by every pass not in ``disabled``.
    Raises ValueError for an unknown mode or pass name."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    disabled = set(disabled)
    unknown = disabled - set(pass_names())
    if unknown:
        raise ValueError(f"unknown pass {', '.join(sorted(unknown))}; passes: {', '.join(pass_names())}")
    if mode == "eager":
        return graph, {}
    g = copy.copy(graph)
    g.nodes = [_copy_node(n) for n in graph.nodes]
    g.constants = dict(graph.constants)
    g.shapes = dict(graph.shapes)
    done = {}
    for p in PASSES:
        if p.name not in disabled:
            done[p.name] = p.run(g)
    return g, done


__all__ = ["MODES", "PASSES", "Pass", "apply_passes", "pass_names", "fold_batchnorm", "fuse_cube_epilogue",
           "fuse_add_rms_norm", "fuse_rms_norm", "fuse_swiglu", "fuse_rotary", "fuse_elementwise",
           "fuse_dequant_epilogue", "keep_nc1hwc0"]
