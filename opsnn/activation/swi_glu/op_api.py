"""aclnnSwiGlu entry points: phase-1 checks in ops-nn's order, then tiling and kernel.

CANN prototype (aclnn_swi_glu.h; ops-nn ``activation/swi_glu``, CANN 8.0 aolapi
reference "aclnnSwiGlu"):
  aclnnSwiGluGetWorkspaceSize(x, dim, out, workspaceSize, executor)
  aclnnSwiGlu(workspace, workspaceSize, executor, stream)

out = Swish(A) * B, A and B the halves of x along ``dim``.

Parameters (CANN order):
  x: FLOAT, FLOAT16, BF16; ND; at least 1-D (at most 8); x.shape[dim] even; not empty
    (the doc: "不支持空Tensor"). Non-contiguous views go through the Contiguous copy
    (CANN's doc lists them as unsupported; the copy is what its l0 would need).
  dim: int64 in [-x.dim(), x.dim() - 1] (the doc names no default; -1 is the
    torch_npu one and the default here).
  out: x's dtype; x's shape with dim halved.
  originalOpNames (simulator extension, after CANN's parameters): the graph ops a
    graph-mode fusion replaced, recorded as trace ``args["fused"]``.
Status: 161001 null x/out; 161002 not a tensor, dtype, rank, dim out of range, odd
dim size, empty x, out shape.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...math.common.host import build_eltwise, check_rank, phase2_entry
from .infershape import infer_shape, norm_dim
from .kernel import swi_glu_compute
from .tiling import swi_glu_tiling

OP = "aclnnSwiGlu"


def _tiling_at(d: int):
    """The family tail's tiling callback for a split along axis ``d``."""
    def tiling(chip, kernel, ins, in_cts, out, out_ct, **_):
        return swi_glu_tiling(chip, ins[0][0], ins[0][1], d)
    return tiling


def _build(chip, x, dim, out, names):
    # 1. null pointers and types
    check_not_null(OP, x=x, out=out)
    check_tensor_type(OP, x=x, out=out)
    # 2. dtypes
    check_dtype(OP, "x", x, FLOAT_TYPES_BF16)
    check_dtype(OP, "out", out, (x.data_type,))
    # 3. shapes and attributes
    shape = tuple(x.view_shape)
    check_rank(OP, "x", x)
    if not shape:
        raise invalid(OP, "x must be at least 1-D")
    if isinstance(dim, bool) or not hasattr(dim, "__index__") or norm_dim(int(dim), len(shape)) is None:
        raise invalid(OP, f"dim {dim!r} out of range [-{len(shape)}, {len(shape) - 1}]")
    d = norm_dim(int(dim), len(shape))
    if shape[d] % 2:
        raise invalid(OP, f"x.shape[{d}] = {shape[d]} must be even")
    if x.numel == 0:
        raise invalid(OP, "x must not be empty")
    (o_shape, _), = infer_shape(shape, x.data_type, d)
    check_shape(OP, "out", out, o_shape)
    # 4. tiling (host) -> tile program (kernel): the elementwise family's tail
    ex = build_eltwise(chip, "SwiGlu", "SwiGlu", [("x", x)], [T.ACL_FLOAT], out, T.ACL_FLOAT, tiling=_tiling_at(d),
                       computes={"SwiGlu": swi_glu_compute}, attrs={"dim": d}, shape=o_shape,
                       info={"fused": list(names)} if names else None)
    if names:   # the trace names the graph ops this kernel stands for (the spec was built just above)
        for k in ex.kernels:
            if k.spec.name == "SwiGlu":
                k.spec.args["fused"] = list(names)
    return ex


def aclnnSwiGluGetWorkspaceSize(x, dim=-1, out=None, originalOpNames=None):  # noqa: N802,N803
    """Phase 1 of out = SwiGlu(x, dim) (module doc: parameters, dtypes, errors).
    Returns ``(workspace_size, executor, status)``."""
    return prepare("SwiGlu", lambda chip: _build(chip, x, dim, out, originalOpNames))


aclnnSwiGlu = phase2_entry("SwiGlu")
