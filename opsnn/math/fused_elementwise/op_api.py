"""aclnnFusedElementwise: phase 1 (checks, shape inference, UB tiling of the whole
chain) and phase 2. An npu-sim graph-mode kernel, not a CANN aclnn API: GE's
graph compiler builds such fused vector ops internally (auto-fusion); this entry
point gives them the same two phases.

  aclnnFusedElementwiseGetWorkspaceSize(inputs, steps, originalOpNames, out)
  aclnnFusedElementwise(workspace, workspaceSize, executor, stream)

inputs: a sequence of aclTensor, FLOAT, FLOAT16 or BF16, shapes broadcasting to
``out``'s. steps: the chain (``tiling_data`` doc), members from ``FUSED_OPS``; binary
steps need operands of one dtype; Cast only to float16/float32/bfloat16.
originalOpNames: the graph ops fused (trace ``args["fused"]``). out: the last
step's dtype, the broadcast shape, contiguous.
Errors: 161001 null input or out; 161002 bad dtype, shape, operand index, member op
or live tiles over MAX_LIVE_TILES.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16, check_dtype, check_not_null, check_tensor_type, invalid
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from .infershape import infer_shape, step_dtypes
from .kernel import fused_body, tile_program
from .tiling import fused_elementwise_tiling
from .tiling_data import FUSED_OPS, MAX_LIVE_TILES

OP = "aclnnFusedElementwise"
_FLOAT_NAMES = ("float16", "float32", "bfloat16")


def _check_steps(inputs, steps):
    n_in = len(inputs)
    for j, step in enumerate(steps):
        if not (isinstance(step, tuple) and len(step) == 3) or step[0] not in FUSED_OPS:
            raise invalid(OP, f"step {j} {step!r} is not (op, operands, attrs) with op in {sorted(FUSED_OPS)}")
        op, operands, attrs = step
        if len(operands) != FUSED_OPS[op].arity or any(not 0 <= o < n_in + j for o in operands):
            raise invalid(OP, f"step {j} ({op}) has operands {list(operands)}; needs {FUSED_OPS[op].arity} "
                              f"earlier values (< {n_in + j})")
        if op == "Cast" and str(dict(attrs).get("to")) not in _FLOAT_NAMES:
            raise invalid(OP, f"step {j}: Cast to {dict(attrs).get('to')!r}; only {', '.join(_FLOAT_NAMES)}")
    dts = step_dtypes([t.np_dtype for t in inputs], steps)
    every = [t.np_dtype for t in inputs] + dts
    for j, (op, operands, _) in enumerate(steps):
        if len(operands) == 2 and every[operands[0]] != every[operands[1]]:
            raise invalid(OP, f"step {j} ({op}) mixes {every[operands[0]]} and {every[operands[1]]}")
    return dts


def _build(chip, inputs, steps, names, out):
    check_not_null(OP, inputs=inputs, out=out)
    if not inputs or not steps:
        raise invalid(OP, "needs at least one input and one step")
    for i, t in enumerate(inputs):
        check_not_null(OP, **{f"inputs[{i}]": t})
        check_tensor_type(OP, **{f"inputs[{i}]": t})
        check_dtype(OP, f"inputs[{i}]", t, FLOAT_TYPES_BF16)
    check_tensor_type(OP, out=out)
    steps = tuple((op, tuple(int(o) for o in ops), tuple(attrs)) for op, ops, attrs in steps)
    dts = _check_steps(inputs, steps)
    if out.np_dtype != dts[-1]:
        raise invalid(OP, f"out dtype {out.dtype_name} is not the chain's result dtype {dts[-1]}")
    try:
        shape = infer_shape([t.view_shape for t in inputs])
    except ValueError:
        raise invalid(OP, f"input shapes {[list(t.view_shape) for t in inputs]} do not broadcast") from None
    if tuple(out.view_shape) != shape or not out.is_contiguous:
        raise invalid(OP, f"out must be contiguous of shape {list(shape)}, got {list(out.view_shape)}")
    c_item = max([t.itemsize for t in inputs] + [d.itemsize for d in dts])
    res = fused_elementwise_tiling(chip, [t.view_shape for t in inputs], [t.itemsize for t in inputs],
                                   out.itemsize, c_item, steps)
    td = res.data
    if td.live_tiles > MAX_LIVE_TILES:
        raise invalid(OP, f"the chain keeps {td.live_tiles} tiles live; at most {MAX_LIVE_TILES} (cut it)")
    args = {"fused": list(names), "steps": [[op, list(o)] for op, o, _ in steps],
            "shapes": [list(t.view_shape) for t in inputs], "output": list(shape), "dtype": out.dtype_name}
    spec = tile_program(td, args, res.tiling_key)
    return aclOpExecutor("FusedElementwise", [PreparedKernel(spec, fused_body(list(inputs), out, steps))],
                         list(inputs), [out], 0, info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def aclnnFusedElementwiseGetWorkspaceSize(inputs, steps, originalOpNames, out):  # noqa: N802,N803
    """Phase 1 of a fused pointwise chain (module doc). Returns (workspace_size,
    executor, status)."""
    ins, st, names = tuple(inputs or ()), tuple(steps or ()), tuple(originalOpNames or ())
    return prepare("FusedElementwise", lambda chip: _build(chip, ins, st, names, out))


def aclnnFusedElementwise(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of FusedElementwise: bind addresses and enqueue on ``stream``."""
    return execute("FusedElementwise", workspace, workspaceSize, executor, stream)
