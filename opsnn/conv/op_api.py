"""aclnnConvolution: phase 1 (checks, shape inference, implicit-GEMM cube tiling) and
phase 2 (the shared executor run).

CANN prototype (aclnn_convolution.h):
  aclnnConvolutionGetWorkspaceSize(input, weight, bias, stride, padding, dilation, transposed,
                                   outputPadding, groups, output, cubeMathType, workspaceSize, executor)
  aclnnConvolution(workspace, workspaceSize, executor, stream)

This slice supports 2-D convolution in NCHW:
  input  [N, C, H, W]; weight [Cout, C/groups, kh, kw]; bias [Cout] or None;
  output [N, Cout, Ho, Wo] with Ho = (H + pad_top + pad_bottom - dh*(kh-1) - 1) // sh + 1
  (Wo alike).
  stride, dilation: aclIntArray (or an int sequence) of length 2, each >= 1.
  padding: length 2 = (pad_h, pad_w), symmetric; or length 4 = (top, bottom, left, right),
    asymmetric (what the ONNX frontend needs for ``pads``; note the order differs from
    ONNX's [top, left, bottom, right]); each >= 0.
  transposed must be False (True returns 161002: not supported in this slice);
  outputPadding is ignored unless transposed and may be None.
  groups >= 1 dividing C and Cout; weight.shape[1] == C / groups (depthwise included).
  dtypes: FLOAT, FLOAT16, BF16; input, weight and output alike; bias any of these.
  formats: NCHW or ND (NHWC storage is rejected).
  cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION and 3 USE_HF32 (fp32 timed at
    the fp16 cube rate, computed in fp32), 2 USE_FP16 (fp32 operands rounded to fp16).

Check order (ops-nn): null pointers (input, weight, output, stride, padding, dilation:
161001), tensor types, dtypes, cubeMathType and transposed, then shapes and attributes
(all 161002).

Timing: implicit GEMM, one GEMM per group: batch = groups, M = N*Ho*Wo (im2col rows),
N = Cout/groups, K = (C/groups)*kh*kw, with the feature map's GM traffic divided by
kh*kw/(sh*sw) (Load3D reads each input pixel once for the overlapping windows). A bias
is loaded into the BiasTable once per output tile (fp32, base_n values) and counted on
that tile's MTE2 stage.
"""
from __future__ import annotations

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype, check_shape,
                           check_tensor_type, invalid)
from ..base.dtypes import aclFormat
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from ..matmul.common.cube_program import cube_program
from ..matmul.common.cube_tiling import cube_tiling
from .kernel import conv_body

OP = "aclnnConvolution"


def _int_list(name: str, value, lengths: tuple[int, ...]) -> list[int]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise invalid(OP, f"{name} must be an aclIntArray of length {' or '.join(map(str, lengths))}, "
                          f"got {value!r}")
    vals = list(value)
    if len(vals) not in lengths:
        raise invalid(OP, f"{name} must have length {' or '.join(map(str, lengths))} for a 2-D convolution, "
                          f"got {len(vals)} ({vals})")
    out = []
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int) and not hasattr(v, "__index__"):
            raise invalid(OP, f"{name} values must be integers, got {vals}")
        out.append(int(v))
    return out


def _cube_dtype(t, cmt: int) -> str:
    name = t.dtype_name
    if name == "float32" and cmt in (1, 2, 3):
        return "float16"  # HF32 / fp16 path runs at the fp16 cube rate
    return name


def _build(chip, input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups,  # noqa: A002
           output, cubeMathType):  # noqa: N803
    # 1. null pointers
    check_not_null(OP, input=input, weight=weight, output=output, stride=stride, padding=padding,
                   dilation=dilation)
    if bias is not None:
        check_not_null(OP, bias=bias)
    # 2. tensor types
    check_tensor_type(OP, input=input, weight=weight, output=output)
    if bias is not None:
        check_tensor_type(OP, bias=bias)
    # 3. dtypes
    for name, t in (("input", input), ("weight", weight), ("output", output)):
        check_dtype(OP, name, t, FLOAT_TYPES_BF16)
    if bias is not None:
        check_dtype(OP, "bias", bias, FLOAT_TYPES_BF16)
    check_same_dtype(OP, input=input, weight=weight, output=output)
    if cubeMathType not in (0, 1, 2, 3) or isinstance(cubeMathType, bool):
        raise invalid(OP, f"cubeMathType must be 0..3, got {cubeMathType!r}")
    cmt = int(cubeMathType)
    if transposed:
        raise invalid(OP, "transposed convolution is not supported (transposed must be false)")
    for name, t in (("input", input), ("weight", weight), ("output", output)):
        if t.storage_format == aclFormat.ACL_FORMAT_NHWC:
            raise invalid(OP, f"{name} format NHWC is not supported; expected NCHW or ND")
    # 4. shapes and attributes
    check_rank(OP, "input", input, (4,))
    check_rank(OP, "weight", weight, (4,))
    sh, sw = _int_list("stride", stride, (2,))
    dh, dw = _int_list("dilation", dilation, (2,))
    pad = _int_list("padding", padding, (2, 4))
    pads = (pad[0], pad[0], pad[1], pad[1]) if len(pad) == 2 else tuple(pad)  # top, bottom, left, right
    if min(sh, sw) < 1:
        raise invalid(OP, f"stride values must be >= 1, got {[sh, sw]}")
    if min(dh, dw) < 1:
        raise invalid(OP, f"dilation values must be >= 1, got {[dh, dw]}")
    if min(pads) < 0:
        raise invalid(OP, f"padding values must be >= 0, got {pad}")
    if isinstance(groups, bool) or not hasattr(groups, "__index__") or int(groups) < 1:
        raise invalid(OP, f"groups must be an integer >= 1, got {groups!r}")
    g = int(groups)
    n, c, h, w = input.view_shape
    co, cg, kh, kw = weight.view_shape
    if min(c, h, w) < 1 or min(co, cg, kh, kw) < 1:
        raise invalid(OP, f"input {list(input.view_shape)} and weight {list(weight.view_shape)} must have "
                          "non-zero channel, spatial and kernel dims")
    if c % g or co % g:
        raise invalid(OP, f"groups={g} must divide input channels C={c} and output channels Cout={co}")
    if cg * g != c:
        raise invalid(OP, f"weight shape {list(weight.view_shape)}: dim 1 must be C/groups = {c // g} "
                          f"(input C={c}, groups={g})")
    if bias is not None:
        check_shape(OP, "bias", bias, (co,))
    pt, pb, pl, pr = pads
    ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    if h + pt + pb < ekh or w + pl + pr < ekw:
        raise invalid(OP, f"kernel extent {[ekh, ekw]} (kernel {[kh, kw]}, dilation {[dh, dw]}) exceeds the "
                          f"padded input {[h + pt + pb, w + pl + pr]}")
    ho = (h + pt + pb - ekh) // sh + 1
    wo = (w + pl + pr - ekw) // sw + 1
    check_shape(OP, "output", output, (n, co, ho, wo))

    # tiling: implicit GEMM per group
    m, nn, k = n * ho * wo, co // g, cg * kh * kw
    reuse = max(1.0, (kh * kw) / (sh * sw))
    args = {"shapes": [list(input.view_shape), list(weight.view_shape)], "output": list(output.view_shape),
            "dtype": input.dtype_name, "stride": [sh, sw], "padding": list(pads), "dilation": [dh, dw],
            "groups": g, "bias": bias is not None, "cubeMathType": cmt,
            "gemm": {"batch": g, "m": m, "n": nn, "k": k, "a_gm_reuse": reuse}}
    cube_dtype = _cube_dtype(input, cmt)
    td = cube_tiling(chip, g, m, nn, k, input.itemsize, output.itemsize, cube_dtype, a_gm_reuse=reuse,
                     name="Convolution")
    # the bias goes into the BiasTable as fp32 (4 B a value), once per output tile
    spec = cube_program(td, "Convolution", input.itemsize, output.itemsize, cube_dtype, a_gm_reuse=reuse,
                        tiling_key=(1 if kh == kw == 1 else 0) + (2 if bias is not None else 0), args=args,
                        bias_itemsize=4 if bias is not None else 0)
    inputs = [input, weight] + ([bias] if bias is not None else [])
    body = conv_body(input, weight, bias, output, (sh, sw), pads, (dh, dw), g,
                     to_fp16=(cmt == 2 and input.dtype_name == "float32"))
    return aclOpExecutor("Convolution", [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def aclnnConvolutionGetWorkspaceSize(input, weight, bias, stride, padding, dilation, transposed,  # noqa: N802,A002
                                     outputPadding, groups, output, cubeMathType=0):  # noqa: N803
    """Phase 1 of a 2-D NCHW convolution (see the module doc for shapes and attributes).
    Returns (workspace_size, executor, status): 161001 for a null input/weight/output/
    stride/padding/dilation; 161002 for a bad dtype, shape, attribute, groups,
    cubeMathType, or transposed=True (not supported)."""
    return prepare("Convolution", lambda chip: _build(chip, input, weight, bias, stride, padding, dilation,
                                                      transposed, outputPadding, groups, output, cubeMathType))


def aclnnConvolution(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Convolution: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("Convolution", workspace, workspaceSize, executor, stream)
