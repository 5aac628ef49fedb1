"""aclnnGroupNorm entry points: phase-1 checks in ops-nn's order, then tiling and kernels.

CANN prototype (aclnnGroupNorm doc, CANN 8.0):
  aclnnGroupNormGetWorkspaceSize(self, gamma, beta, N, C, HxW, group, eps, out, meanOut,
                                 rstdOut, workspaceSize, executor)
  aclnnGroupNorm(workspace, workspaceSize, executor, stream)

Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16; ND; 2-8 dims with shape[0] == N, shape[1] == C and
    N * C * HxW elements. Non-contiguous views go through the shared Contiguous copy.
  gamma, beta: 1-D of C elements, self's dtype. May be null here (then 1 and 0) [A:
    PyTorch's optional weight/bias; the CANN doc lists them as inputs].
  N, C, HxW, group: int64 host values; group >= 1 divides C.
  eps: a finite number >= 0 (double).
  out: self's shape and dtype. meanOut, rstdOut: [N, group], self's dtype.
Status: 161001 null self/out/meanOut/rstdOut; 161002 not a tensor, dtype, rank, shape
or attribute invalid; 561002 a forced fused strategy that does not fit. An empty self
prepares an executor with no kernel.

Strategies (``tiling.py``) as LayerNorm's; keyword-only ``strategy`` (simulator
extension) forces "fused" or "multi_pass".
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.executor import aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from ..common.host import MAX_RANK, check_eps, check_strategy, plan_refs, row_norm_prepared
from .infershape import infer_shape
from .kernel import apply_body, fused_body, stats_body, tile_program
from .tiling import REGISTRY, group_norm_tiling

OP = "aclnnGroupNorm"


def _int(name: str, v, minimum: int) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise invalid(OP, f"{name} must be an integer, got {v!r}")
    v = int(v)
    if v < minimum:
        raise invalid(OP, f"{name} must be >= {minimum}, got {v}")
    return v


def _build(chip, self, gamma, beta, N, C, HxW, group, eps, out, meanOut, rstdOut, strategy):  # noqa: N803,A002
    # 1. null pointers and types
    check_not_null(OP, self=self, out=out, meanOut=meanOut, rstdOut=rstdOut)
    check_tensor_type(OP, self=self, out=out, meanOut=meanOut, rstdOut=rstdOut)
    for name, t in (("gamma", gamma), ("beta", beta)):
        if t is not None:
            check_tensor_type(OP, **{name: t})
    # 2. dtypes
    check_dtype(OP, "self", self, FLOAT_TYPES_BF16)
    for name, t in (("gamma", gamma), ("beta", beta), ("out", out), ("meanOut", meanOut), ("rstdOut", rstdOut)):
        if t is not None:
            check_dtype(OP, name, t, (self.data_type,))
    # 3. shapes and attributes
    n, c, hw, g = _int("N", N, 0), _int("C", C, 1), _int("HxW", HxW, 0), _int("group", group, 1)
    shape = tuple(self.view_shape)
    if not 2 <= len(shape) <= MAX_RANK:
        raise invalid(OP, f"self must be 2-D to {MAX_RANK}-D, got shape {list(shape)}")
    if shape[0] != n or shape[1] != c or self.numel != n * c * hw:
        raise invalid(OP, f"self shape {list(shape)} does not match N={n}, C={c}, HxW={hw}")
    if c % g:
        raise invalid(OP, f"group={g} must divide C={c}")
    for name, t in (("gamma", gamma), ("beta", beta)):
        if t is not None:
            check_shape(OP, name, t, (c,))
    (o_shape, _), (m_shape, _), _ = infer_shape(shape, self.data_type, n, g)
    check_shape(OP, "out", out, o_shape)
    check_shape(OP, "meanOut", meanOut, m_shape)
    check_shape(OP, "rstdOut", rstdOut, m_shape)
    eps_f = check_eps(OP, "eps", eps)
    if eps_f < 0:
        raise invalid(OP, f"eps must be >= 0, got {eps!r}")
    check_strategy(OP, REGISTRY, strategy)
    inputs = [t for t in (self, gamma, beta) if t is not None]
    outputs = [out, meanOut, rstdOut]
    # 4. empty tensor: nothing to launch
    if self.numel == 0:
        return aclOpExecutor("GroupNorm", [], inputs, outputs, 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile programs (kernel)
    res = group_norm_tiling(chip, n, c, hw, g, self.itemsize, strategy)
    td = res.data
    args = {"shapes": [list(shape)], "dtype": self.dtype_name, "group": g, "eps": eps_f}
    specs = tile_program(td, args)
    plan = WorkspacePlan(chip, OP)
    refs = plan_refs(plan, (("self", self), ("gamma", gamma), ("beta", beta)),
                     ((("out", "out"), out), (("mean", "meanOut"), meanOut), (("rstd", "rstdOut"), rstdOut)))
    shape4 = (n, g, c // g, hw)
    main = row_norm_prepared(td, specs, plan, refs, shape4, None, eps_f, _fused, _stats, _apply)
    kernels = plan.kernels(main)
    info = dict(td.info(), tiling_key=specs[0].tiling_key, tiling=[s.args["tiling"] for s in specs],
                workspace_bytes=plan.size)
    return aclOpExecutor("GroupNorm", kernels, inputs, outputs, plan.size, info=info, tiling=res)


# row_norm_prepared passes (refs, rows, d, ...): GroupNorm's bodies take the 4-D shape
# as ``rows`` (its d is unused) and substitute 1 / 0 for a missing gamma / beta.
def _fused(refs, shape4, _d, eps):
    return fused_body(refs, shape4, eps)


def _stats(refs, shape4, _d, c, eps, off):
    return stats_body(refs, shape4, c, eps, off)


def _apply(refs, shape4, _d, off):
    return apply_body(refs, shape4, off)


def aclnnGroupNormGetWorkspaceSize(self, gamma, beta, N, C, HxW, group, eps, out, meanOut, rstdOut,  # noqa: N802,N803,A002
                                   *, strategy=None):
    """Phase 1 of GroupNorm (module doc: parameters, dtypes, errors). Returns
    ``(workspace_size, executor, status)``. ``strategy`` (keyword-only simulator
    extension): None, "fused" or "multi_pass"."""
    return prepare("GroupNorm", lambda chip: _build(chip, self, gamma, beta, N, C, HxW, group, eps, out, meanOut,
                                                    rstdOut, strategy))


def aclnnGroupNorm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of GroupNorm: bind addresses and enqueue the kernel(s) phase 1 chose."""
    return execute("GroupNorm", workspace, workspaceSize, executor, stream)
