"""aclnnQuantConvolution: phase 1 (checks, shape inference, int8 implicit-GEMM tiling)
and phase 2 (the shared executor run).

CANN prototype (aclnn_quant_convolution.h; CANN 8.2 aolapi doc "aclnnQuantConvolution",
ops-nn ``conv/convolution_forward/docs/aclnnQuantConvolution.md``):
  aclnnQuantConvolutionGetWorkspaceSize(input, weight, bias, scale, offset, stride, padding,
                                        dilation, transposed, outputPadding, groups, offsetx,
                                        roundMode, output, workspaceSize, executor)
  aclnnQuantConvolution(workspace, workspaceSize, executor, stream)

| param | dtype (npu-sim) | shape |
|---|---|---|
| input | INT8 | [N, C, H, W] (NCHW) |
| weight | INT8 | [Cout, C/groups, kh, kw] |
| bias (optional) | INT32 (added to the accumulator), FLOAT, FLOAT16, BF16 (after the scale) | [Cout] |
| scale | FLOAT | [1] (per tensor) or [Cout] (per channel; CANN's doc gives [Cout]) |
| offset (optional) | FLOAT | [1] or [Cout]: the output zero point, INT8 / UINT8 output only |
| output | FLOAT16, BF16 (CANN); INT8, UINT8, INT32 (npu-sim, below) | [N, Cout, Ho, Wo] |

stride, padding, dilation, groups as aclnnConvolution (padding of length 2 or 4, the
4-length form (top, bottom, left, right)); ``transposed`` must be false (a quantized
transposed convolution is not built: 161002); outputPadding is ignored and may be
None. ``offsetx``: int8 pad value of the feature map, -128..127 (``kernel.py``).
``roundMode``: "rint" (round half to even; None means "rint"), the rounding of an
integer output. CANN's doc covers 2-D and 3-D (NCDHW); npu-sim builds 2-D only and
refuses a 5-D input with 161002.

npu-sim extensions [A] (what ONNX's ConvInteger and QLinearConv need, as
aclnnQuantMatmulV4's INT32 out does for MatMulInteger): an INT32 output is the int32
accumulator plus an INT32 bias, no scale; an INT8 / UINT8 output is FixPipe's requant
(round half to even, ``offset`` added, saturate). CANN also lists INT64 / UINT64 scales
(the packed FixPipe form of aclnnTransQuantParamV2): refused with 161002 naming the
dtype; pass the float32 scale.

Check order (ops-nn): null pointers (input, weight, scale, output, stride, padding,
dilation: 161001), tensor types, dtypes (161002, the message names the dtype), then
transposed, roundMode, offsetx, shapes and attributes (161002).
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_rank, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType, aclFormat
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ..convolution.infershape import normalize_pads, out_hw
from .kernel import quant_conv_body, tile_program
from .tiling import quant_convolution_tiling
from .tiling_data import QuantMode

DT = aclDataType
OP = "aclnnQuantConvolution"
X_TYPES = (DT.ACL_INT8,)
SCALE_TYPES = (DT.ACL_FLOAT,)
BIAS_TYPES = (DT.ACL_INT32, DT.ACL_FLOAT, DT.ACL_FLOAT16, DT.ACL_BF16)
OUT_TYPES = (DT.ACL_FLOAT16, DT.ACL_BF16, DT.ACL_INT8, DT.ACL_UINT8, DT.ACL_INT32)
ROUND_MODES = ("rint",)


def _ints(name: str, value, lengths: tuple[int, ...], minimum: int) -> list[int]:
    """The values of an aclIntArray attribute, 161002 unless of a length in ``lengths``
    with integer values >= ``minimum``."""
    vals = None if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") else list(value)
    if vals is None or len(vals) not in lengths or any(isinstance(v, bool) or not hasattr(v, "__index__")
                                                       for v in vals):
        raise invalid(OP, f"{name} must be an aclIntArray of {' or '.join(map(str, lengths))} integers, "
                          f"got {value!r}")
    if min(int(v) for v in vals) < minimum:
        raise invalid(OP, f"{name} values must be >= {minimum}, got {vals}")
    return [int(v) for v in vals]


def _vector(name: str, t, n: int) -> None:
    if len(t.view_shape) != 1 or t.view_shape[0] not in (1, n):
        raise invalid(OP, f"{name} must be 1-D of length 1 or Cout={n}, got {list(t.view_shape)}")


def _checks(input, weight, bias, scale, offset, stride, padding, dilation, transposed, groups,  # noqa: A002
            offsetx, roundMode, output):  # noqa: N803
    check_not_null(OP, input=input, weight=weight, scale=scale, output=output, stride=stride, padding=padding,
                   dilation=dilation)
    opt = {k: v for k, v in (("bias", bias), ("offset", offset)) if v is not None}
    check_tensor_type(OP, input=input, weight=weight, scale=scale, output=output, **opt)
    for name, t, allowed in (("input", input, X_TYPES), ("weight", weight, X_TYPES), ("bias", bias, BIAS_TYPES),
                             ("scale", scale, SCALE_TYPES), ("offset", offset, (DT.ACL_FLOAT,)),
                             ("output", output, OUT_TYPES)):
        if t is not None:
            check_dtype(OP, name, t, allowed)
    if transposed:
        raise invalid(OP, "transposed=true is not supported: npu-sim builds the forward quantized convolution only")
    if roundMode is not None and roundMode not in ROUND_MODES:
        raise invalid(OP, f"roundMode must be one of {list(ROUND_MODES)}, got {roundMode!r}")
    if isinstance(offsetx, bool) or not hasattr(offsetx, "__index__") or not -128 <= int(offsetx) <= 127:
        raise invalid(OP, f"offsetx must be an integer in [-128, 127], got {offsetx!r}")
    for name, t in (("input", input), ("weight", weight), ("output", output)):
        if t.storage_format == aclFormat.ACL_FORMAT_NHWC:
            raise invalid(OP, f"{name} format NHWC is not supported; expected NCHW or ND")
    if len(input.view_shape) == 5:
        raise invalid(OP, "a 3-D (NCDHW) quantized convolution is not built in npu-sim; input must be 4-D NCHW")
    check_rank(OP, "input", input, (4,))
    check_rank(OP, "weight", weight, (4,))
    stride_hw = _ints("stride", stride, (2,), 1)
    dil = _ints("dilation", dilation, (2,), 1)
    pads = normalize_pads(_ints("padding", padding, (2, 4), 0))
    if isinstance(groups, bool) or not hasattr(groups, "__index__") or int(groups) < 1:
        raise invalid(OP, f"groups must be an integer >= 1, got {groups!r}")
    g = int(groups)
    n, c, h, w = input.view_shape
    co, cg, kh, kw = weight.view_shape
    if min(n, c, h, w, co, cg, kh, kw) < 1:
        raise invalid(OP, f"input {list(input.view_shape)} and weight {list(weight.view_shape)} must not be empty "
                          "(CANN refuses empty tensors here)")
    if c % g or co % g or cg * g != c:
        raise invalid(OP, f"groups={g}: input C={c} and Cout={co} must divide by it and weight dim 1 "
                          f"({cg}) must be C/groups")
    pt, pb, pl, pr = pads
    if h + pt + pb < dil[0] * (kh - 1) + 1 or w + pl + pr < dil[1] * (kw - 1) + 1:
        raise invalid(OP, f"the dilated kernel {[kh, kw]} (dilation {dil}) exceeds the padded input "
                          f"{[h + pt + pb, w + pl + pr]}")
    _vector("scale", scale, co)
    if offset is not None:
        _vector("offset", offset, co)
        if output.data_type not in (DT.ACL_INT8, DT.ACL_UINT8):
            raise invalid(OP, f"offset needs an ACL_INT8 or ACL_UINT8 output, got {output.data_type.name}")
    if bias is not None:
        check_shape(OP, "bias", bias, (co,))
        if output.data_type == DT.ACL_INT32 and bias.data_type != DT.ACL_INT32:
            raise invalid(OP, f"an ACL_INT32 output takes an ACL_INT32 bias only, got {bias.data_type.name}")
    ho, wo = out_hw(h, w, kh, kw, tuple(stride_hw), pads, tuple(dil))
    check_shape(OP, "output", output, (n, co, ho, wo))
    return tuple(stride_hw), pads, tuple(dil), g, (ho, wo)


def _build(chip, input, weight, bias, scale, offset, stride, padding, dilation, transposed, outputPadding,  # noqa: A002
           groups, offsetx, roundMode, output):  # noqa: N803
    st, pads, dil, g, ohw = _checks(input, weight, bias, scale, offset, stride, padding, dilation, transposed,
                                    groups, offsetx, roundMode, output)
    co = weight.view_shape[0]
    mode = (QuantMode.ACCUMULATOR if output.data_type == DT.ACL_INT32 else
            QuantMode.PER_CHANNEL if scale.view_shape[0] == co and co != 1 else QuantMode.PER_TENSOR)
    res = quant_convolution_tiling(chip, tuple(input.view_shape), tuple(weight.view_shape), ohw, st, g,
                                   output.itemsize, bias is not None, mode)
    td = res.data
    args = {"shapes": [list(input.view_shape), list(weight.view_shape)], "output": list(output.view_shape),
            "dtype": "int8", "compute_dtype": "int8", "out_dtype": output.dtype_name, "stride": list(st),
            "padding": list(pads), "dilation": list(dil), "groups": g, "offsetx": int(offsetx),
            "dequant": mode.name.lower(), "bias": None if bias is None else bias.dtype_name,
            "gemm": {"batch": td.batch, "m": td.m, "n": td.n, "k": td.k, "a_gm_reuse": td.a_gm_reuse}}
    spec = tile_program(td, args, res.tiling_key, dequant=mode != QuantMode.ACCUMULATOR)
    inputs = [t for t in (input, weight, scale, offset, bias) if t is not None]
    body = quant_conv_body(input, weight, scale, offset, bias, output, st, pads, dil, g, int(offsetx))
    return aclOpExecutor("QuantConvolution", [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key,
                               "compute_dtype": "int8", "dequant": mode.name.lower()})


def aclnnQuantConvolutionGetWorkspaceSize(input, weight, bias, scale, offset, stride, padding, dilation,  # noqa: N802,A002
                                          transposed, outputPadding, groups, offsetx, roundMode, output):  # noqa: N803
    """Phase 1 of output = FixPipe(conv_int8(input, weight)) (module doc). Returns
    (workspace_size, executor, status): 161001 null input/weight/scale/output/stride/
    padding/dilation; 161002 dtype (named), transposed, roundMode, offsetx, shape,
    attribute, offset/bias combination errors."""
    return prepare("QuantConvolution", lambda chip: _build(chip, input, weight, bias, scale, offset, stride, padding,
                                                           dilation, transposed, outputPadding, groups, offsetx,
                                                           roundMode, output))


def aclnnQuantConvolution(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of QuantConvolution: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("QuantConvolution", workspace, workspaceSize, executor, stream)
