"""aclnnApplyRotaryPosEmb entry points: phase-1 checks in ops-nn's order, then tiling
and the kernel.

CANN prototype (aclnn_apply_rotary_pos_emb.h; ops-transformer
``posembedding/apply_rotary_pos_emb``, CANN 8.0 aolapi reference "aclnnApplyRotaryPosEmb"):
  aclnnApplyRotaryPosEmbGetWorkspaceSize(queryRef, keyRef, cos, sin, layout, workspaceSize, executor)
  aclnnApplyRotaryPosEmb(workspace, workspaceSize, executor, stream)

Fuses the rotary embedding of query and key into one kernel and updates both in place:
q = q * cos + rotate_half(q) * sin, k likewise, rotate_half(x) = cat(-x2, x1) over the
last axis halves.

Parameters (CANN order):
  queryRef: FLOAT, FLOAT16, BF16; ND, 4-D [B, S, Nq, D] (layout BSND); D even;
    non-contiguous views accepted (Contiguous copy in, ViewCopy back).
  keyRef: [B, S, Nk, D], queryRef's dtype. Simulator extension: None rotates the
    query alone (the ONNX RotaryEmbedding op has one input).
  cos, sin: queryRef's dtype, [B or 1, S or 1, 1, D].
  layout: int64, 1 = BSND (the only value CANN's doc lists).
  rotaryMode (simulator extension, after CANN's parameters): "half" (CANN's formula) or
    "interleave" (pairs (x0, x1) -> (-x1, x0), the mode CANN's
    aclnnRotaryPositionEmbedding calls interleave).
  originalOpNames (simulator extension, after rotaryMode): the graph ops a graph-mode
    fusion replaced, recorded as trace ``args["fused"]``.
Status: 161001 null queryRef/cos/sin; 161002 not a tensor, dtype, rank, shape, layout
or rotaryMode invalid, D odd. An empty queryRef prepares an executor with no kernel.
16-bit inputs compute in float32 and round once.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_tensor_type, invalid
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .infershape import LAYOUT_BSND, cos_shape_ok
from .kernel import make_body, tile_program
from .tiling import apply_rotary_pos_emb_tiling

OP = "aclnnApplyRotaryPosEmb"
MODES = ("half", "interleave")


def _build(chip, queryRef, keyRef, cos, sin, layout, rotaryMode, names):  # noqa: N803
    # 1. null pointers and types
    check_not_null(OP, queryRef=queryRef, cos=cos, sin=sin)
    named = dict(queryRef=queryRef, cos=cos, sin=sin, **({"keyRef": keyRef} if keyRef is not None else {}))
    check_tensor_type(OP, **named)
    # 2. dtypes
    check_dtype(OP, "queryRef", queryRef, FLOAT_TYPES_BF16)
    for name in ("keyRef", "cos", "sin"):
        if name in named:
            check_dtype(OP, name, named[name], (queryRef.data_type,))
    # 3. shapes and attributes
    qs = tuple(queryRef.view_shape)
    if len(qs) != 4:
        raise invalid(OP, f"queryRef must be 4-D [B, S, N, D], got shape {list(qs)}")
    if qs[3] % 2:
        raise invalid(OP, f"head size D = {qs[3]} must be even")
    if keyRef is not None:
        ks = tuple(keyRef.view_shape)
        if len(ks) != 4 or ks[:2] != qs[:2] or ks[3] != qs[3]:
            raise invalid(OP, f"keyRef shape {list(ks)} must be [B, S, Nk, D] with queryRef's B, S, D {list(qs)}")
    for name in ("cos", "sin"):
        if not cos_shape_ok(tuple(named[name].view_shape), qs):
            raise invalid(OP, f"{name} shape {list(named[name].view_shape)} must be [B or 1, S or 1, 1, D] for "
                              f"queryRef {list(qs)}")
    if isinstance(layout, bool) or not hasattr(layout, "__index__") or int(layout) != LAYOUT_BSND:
        raise invalid(OP, f"layout must be 1 (BSND), got {layout!r}")
    if rotaryMode not in MODES:
        raise invalid(OP, f"rotaryMode must be one of {', '.join(MODES)}, got {rotaryMode!r}")
    tensors = [queryRef] + ([keyRef] if keyRef is not None else [])
    inputs = tensors + [cos, sin]
    # 4. empty tensor: nothing to launch
    if queryRef.numel == 0:
        return aclOpExecutor("ApplyRotaryPosEmb", [], inputs, tensors, 0, info={"strategy": "empty"})
    # 5. tiling (host) -> tile program (kernel); copies share the workspace
    d = qs[3]
    rows_q = queryRef.numel // d
    rows_k = keyRef.numel // d if keyRef is not None else 0
    cos_rows = qs[0] * qs[1]
    interleaved = rotaryMode == "interleave"
    res = apply_rotary_pos_emb_tiling(chip, d, rows_q, rows_k, cos_rows, queryRef.itemsize, cos.itemsize,
                                      interleaved)
    args = {"shapes": [list(t.view_shape) for t in inputs], "dtype": queryRef.dtype_name, "layout": int(layout),
            "rotary_mode": rotaryMode}
    if names:
        args["fused"] = list(names)
    spec = tile_program(res.data, args, res.tiling_key)
    plan = WorkspacePlan(chip, OP)
    in_refs = [plan.input(t, i) for i, t in enumerate(inputs)]
    n = len(tensors)
    out_refs = [plan.output(t, len(inputs) + i, name) for i, (t, name) in
                enumerate(zip(tensors, ("queryRef", "keyRef")))]
    main = PreparedKernel(spec, make_body(list(zip(in_refs[:n], out_refs)), in_refs[n], in_refs[n + 1], interleaved))
    kernels = plan.kernels([main])
    info = {"strategy": res.strategy, "tiling_key": res.tiling_key, "rotary_mode": rotaryMode,
            "tiling": spec.args["tiling"], "workspace_bytes": plan.size,
            "copies": [k.spec.name for k in kernels if k is not main]}
    return aclOpExecutor("ApplyRotaryPosEmb", kernels, inputs, tensors, plan.size, info=info, tiling=res)


def aclnnApplyRotaryPosEmbGetWorkspaceSize(queryRef, keyRef, cos, sin, layout=1,  # noqa: N802,N803
                                           rotaryMode="half", originalOpNames=None):
    """Phase 1 of ApplyRotaryPosEmb (module doc: parameters, dtypes, errors). Returns
    ``(workspace_size, executor, status)``."""
    return prepare("ApplyRotaryPosEmb", lambda chip: _build(chip, queryRef, keyRef, cos, sin, layout, rotaryMode,
                                                            originalOpNames))


def aclnnApplyRotaryPosEmb(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ApplyRotaryPosEmb: bind addresses and enqueue the kernel."""
    return execute("ApplyRotaryPosEmb", workspace, workspaceSize, executor, stream)
