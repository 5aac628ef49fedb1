"""aclnnQuantMatmulV4: phase 1 (checks, shape inference, int8 cube tiling) and phase 2
(the shared executor run).

CANN prototype (aclnn_quant_matmul_v4.h; CANN 8.0 aolapi doc "aclnnQuantMatmulV4"):
  aclnnQuantMatmulV4GetWorkspaceSize(x1, x2, scale, offset, pertokenScaleOptional, bias,
                                     transposeX1, transposeX2, out, workspaceSize, executor)
  aclnnQuantMatmulV4(workspace, workspaceSize, executor, stream)

| param | dtype (npu-sim) | shape |
|---|---|---|
| x1 | INT8 | [batch..., M, K], or [batch..., K, M] with transposeX1 (2-6 dims) |
| x2 | INT8 | [batch..., K, N], or [batch..., N, K] with transposeX2 (2-6 dims) |
| scale | FLOAT, BF16 | [1] (per tensor) or [N] (per channel) |
| offset (optional) | FLOAT | [1] or [N]; only with an INT8 out and no float bias |
| pertokenScaleOptional | FLOAT | [M] |
| bias (optional) | INT32 (added before the scale), FLOAT, FLOAT16, BF16 (after) | [N], or [batch, 1, N] for 3-D out |
| out | FLOAT16, BF16, INT8, INT32 | [batch..., M, N] |

An INT32 out (CANN lists it for Atlas A2 without its formula) is written as the int32
accumulator plus an INT32 bias, the scale not applied [A] (what MatMulInteger needs).
CANN's ops-nn marks V4 as to be replaced by aclnnQuantMatmulV5 (ops-nn
``matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulV4.md``); V4's argument order is the
one taken here.

CANN also lists dtypes npu-sim refuses with 161002 naming the dtype: INT32 / INT4 for
x1/x2 (packed int4 quantization) and INT64 / UINT64 for scale (the packed FixPipe scale
aclnnTransQuantParamV2 produces; pass the float32 scale instead). Batch dims broadcast
(numpy rules). A non-contiguous x1/x2 (a transposed view included) gets a Contiguous
copy first; a non-contiguous out a ViewCopy after.
Status: 161001 null x1/x2/scale/out; 161002 not a tensor, a dtype above (message names
it), rank, K mismatch, batch dims that do not broadcast, scale/offset/pertoken/bias
shape, offset with a non-INT8 out or with a float bias, out shape.
"""
from __future__ import annotations

from ...base.checks import broadcast_shape, check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .infershape import quant_gemm_dims
from .kernel import quant_matmul_body, tile_program
from .tiling import quant_matmul_tiling
from .tiling_data import QuantMatmulTilingKey

DT = aclDataType
OP = "aclnnQuantMatmulV4"
X_TYPES = (DT.ACL_INT8,)
SCALE_TYPES = (DT.ACL_FLOAT, DT.ACL_BF16)
BIAS_TYPES = (DT.ACL_INT32, DT.ACL_FLOAT, DT.ACL_FLOAT16, DT.ACL_BF16)
OUT_TYPES = (DT.ACL_FLOAT16, DT.ACL_BF16, DT.ACL_INT8, DT.ACL_INT32)


def _check_vec(name: str, t, allowed: tuple[int, ...], what: str) -> None:
    if len(t.view_shape) != 1 or t.view_shape[0] not in allowed:
        raise invalid(OP, f"{name} must be 1-D of length {' or '.join(map(str, sorted(set(allowed))))} "
                          f"({what}), got {list(t.view_shape)}")


def _checks(x1, x2, scale, offset, pertoken, bias, tx1: bool, tx2: bool, out):
    check_not_null(OP, x1=x1, x2=x2, scale=scale, out=out)
    opt = {k: v for k, v in (("offset", offset), ("pertokenScaleOptional", pertoken), ("bias", bias))
           if v is not None}
    check_tensor_type(OP, x1=x1, x2=x2, scale=scale, out=out, **opt)
    if not isinstance(tx1, bool) or not isinstance(tx2, bool):
        raise invalid(OP, f"transposeX1/transposeX2 must be bool, got {tx1!r}, {tx2!r}")
    for name, t, allowed in (("x1", x1, X_TYPES), ("x2", x2, X_TYPES), ("scale", scale, SCALE_TYPES),
                             ("offset", offset, (DT.ACL_FLOAT,)), ("pertokenScaleOptional", pertoken, (DT.ACL_FLOAT,)),
                             ("bias", bias, BIAS_TYPES), ("out", out, OUT_TYPES)):
        if t is not None:
            check_dtype(OP, name, t, allowed)
    for name, t in (("x1", x1), ("x2", x2)):
        if not 2 <= len(t.view_shape) <= 6:
            raise invalid(OP, f"{name} must have 2 to 6 dims, got {list(t.view_shape)}")
    broadcast_shape(OP, x1.view_shape[:-2], x2.view_shape[:-2])  # 161002 if they do not broadcast
    shape, batch, m, n, k, k2 = quant_gemm_dims(x1.view_shape, x2.view_shape, tx1, tx2)
    if k != k2:
        raise invalid(OP, f"inner dimensions differ: x1 {list(x1.view_shape)} has K={k}, "
                          f"x2 {list(x2.view_shape)} has K={k2}")
    _check_vec("scale", scale, (1, n), "per tensor or per channel")
    if offset is not None:
        _check_vec("offset", offset, (1, n), "per tensor or per channel")
        if out.data_type != DT.ACL_INT8:
            raise invalid(OP, f"offset needs an ACL_INT8 out, got {out.data_type.name}")
        if bias is not None and bias.data_type != DT.ACL_INT32:
            raise invalid(OP, f"offset cannot be combined with a {bias.data_type.name} bias")
    if pertoken is not None:
        _check_vec("pertokenScaleOptional", pertoken, (m,), "one per row of x1")
    if bias is not None:
        bsh = tuple(bias.view_shape)
        batch3 = (len(shape) == 3 and bsh == (shape[0], 1, n))
        if not batch3:
            _check_vec("bias", bias, (n,), "one per output column, or [batch, 1, N] for a 3-D out")
    check_shape(OP, "out", out, shape)
    return shape, batch, m, n, k


def _build(chip, x1, x2, scale, offset, pertoken, bias, tx1, tx2, out):
    shape, batch, m, n, k = _checks(x1, x2, scale, offset, pertoken, bias, tx1, tx2, out)
    key = (QuantMatmulTilingKey.PER_TOKEN if pertoken is not None else
           QuantMatmulTilingKey.PER_CHANNEL if scale.view_shape[0] == n and n != 1 else
           QuantMatmulTilingKey.PER_TENSOR)
    res = quant_matmul_tiling(chip, batch, m, n, k, out.itemsize, key)
    args = {"shapes": [list(x1.view_shape), list(x2.view_shape)], "dtype": "int8", "compute_dtype": "int8",
            "out_dtype": out.dtype_name, "dequant": key.name.lower(), "transpose": [tx1, tx2],
            "bias": None if bias is None else bias.dtype_name}
    spec = tile_program(res.data, out.itemsize, args, res.tiling_key, has_bias=bias is not None)
    inputs = [t for t in (x1, x2, scale, offset, pertoken, bias) if t is not None]
    plan = WorkspacePlan(chip, OP)
    refs = [plan.input(t, i) for i, t in enumerate(inputs)]
    out_ref = plan.output(out, len(inputs))
    it = iter(refs)
    r1, r2, rs = next(it), next(it), next(it)
    ro, rp, rb = (next(it) if t is not None else None for t in (offset, pertoken, bias))
    body = quant_matmul_body(r1, r2, out_ref, rs, ro, rp, rb, tx1, tx2)
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    return aclOpExecutor("QuantMatmulV4", kernels, inputs, [out], plan.size,
                         info={"tiling": spec.args["tiling"], "compute_dtype": "int8", "dequant": key.name.lower(),
                               "copies": [kk.spec.name for kk in kernels if kk is not main]})


def aclnnQuantMatmulV4GetWorkspaceSize(x1, x2, scale, offset, pertokenScaleOptional, bias,  # noqa: N802,N803
                                       transposeX1, transposeX2, out):  # noqa: N803
    """Phase 1 of out = dequant(x1 @ x2) (module doc). Returns (workspace_size,
    executor, status): 161001 null x1/x2/scale/out; 161002 dtype (named), shape or
    flag errors."""
    return prepare("QuantMatmulV4", lambda chip: _build(chip, x1, x2, scale, offset, pertokenScaleOptional, bias,
                                                        transposeX1, transposeX2, out))


def aclnnQuantMatmulV4(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of QuantMatmulV4: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("QuantMatmulV4", workspace, workspaceSize, executor, stream)
