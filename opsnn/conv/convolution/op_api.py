"""aclnnConvolution: phase 1 (checks, shape inference, implicit-GEMM cube tiling) and
phase 2 (the shared executor run).

CANN prototype (aclnn_convolution.h):
  aclnnConvolutionGetWorkspaceSize(input, weight, bias, stride, padding, dilation, transposed,
                                   outputPadding, groups, output, cubeMathType, workspaceSize, executor)
  aclnnConvolution(workspace, workspaceSize, executor, stream)

This module runs the 2-D forward convolution in NCHW; 1-D (NCL), 3-D (NCDHW) and
``transposed=true`` (1-D, 2-D, 3-D; weight [Cin, Cout/groups, *k], outputPadding) are
``op_api_nd.py`` (same checks up to cubeMathType, then its own shape checks). 2-D:
  input  [N, C, H, W]; weight [Cout, C/groups, kh, kw]; bias [Cout] or None;
  output [N, Cout, Ho, Wo] with Ho = (H + pad_top + pad_bottom - dh*(kh-1) - 1) // sh + 1
  (Wo alike).
  stride, dilation: aclIntArray (or an int sequence) of length 2, each >= 1.
  padding: length 2 = (pad_h, pad_w), symmetric; or length 4 = (top, bottom, left, right),
    asymmetric (what the ONNX frontend needs for ``pads``; note the order differs from
    ONNX's [top, left, bottom, right]); each >= 0.
  outputPadding is ignored unless transposed and may be None.
  groups >= 1 dividing C and Cout; weight.shape[1] == C / groups (depthwise included).
  dtypes: FLOAT, FLOAT16, BF16; input, weight and output alike; bias any of these.
  formats: NCHW or ND (NHWC storage is rejected).
  cubeMathType: the Cube's compute type comes from the family-wide
    ``opsnn.matmul.common.cube_math.cube_compute_dtype`` (CANN Atlas A2, as for Matmul):
    fp32 stays fp32 under 0 KEEP_DTYPE, goes HF32 under 1 ALLOW_FP32_DOWN_PRECISION and
    3 USE_HF32, fp16 under 2 USE_FP16 (operands rounded and timed at that type's rate);
    16-bit inputs compute as stored. ``args["compute_dtype"]`` names the choice.

Check order (ops-nn): null pointers (input, weight, output, stride, padding, dilation:
161001), tensor types, dtypes, cubeMathType and transposed, then shapes and attributes
(all 161002).

Timing: implicit GEMM, one GEMM per group (``tiling.py``); a bias is loaded into the
BiasTable once per output tile (``kernel.py``).

Formats (``formats.py``): with groups = 1 the Cube kernel runs on NC1HWC0 / FRACTAL_Z
and the executor adds TransData kernels for every NCHW operand (input, weight, output),
as ops-nn's executor does; packed tensors (storage_format NC1HWC0 / FRACTAL_Z, view =
the logical shape) are used as they are.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype,
                            check_shape, check_tensor_type, invalid)
from ...base.dtypes import aclFormat
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from .formats import check_residual, packed_conv_body, plan_formats
from .infershape import normalize_pads, out_hw
from .kernel import conv_body, tile_program
from .op_api_nd import build_nd
from ...matmul.common.cube_math import compute_dtype_name, cube_compute_dtype
from .tiling import convolution_tiling

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


def _build(chip, input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups,  # noqa: A002
           output, cubeMathType, fused=None, residual=None):  # noqa: N803
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
    if residual is not None and (transposed or len(input.view_shape) != 4):
        raise invalid("aclnnFusedConvolution", "residual is supported for the 2-D forward convolution only")
    if transposed or len(input.view_shape) in (3, 5):  # 1-D, 3-D and transposed: op_api_nd.py
        return build_nd(OP if fused is None else "aclnnFusedConvolution", chip, input, weight, bias, stride,
                        padding, dilation, transposed, outputPadding, groups, output, cmt, fused)
    for name, t in (("input", input), ("weight", weight), ("output", output)):
        if t.storage_format == aclFormat.ACL_FORMAT_NHWC:
            raise invalid(OP, f"{name} format NHWC is not supported; expected NCHW or ND")
    # 4. shapes and attributes
    check_rank(OP, "input", input, (4,))
    check_rank(OP, "weight", weight, (4,))
    sh, sw = _int_list("stride", stride, (2,))
    dh, dw = _int_list("dilation", dilation, (2,))
    pad = _int_list("padding", padding, (2, 4))
    pads = normalize_pads(pad)  # top, bottom, left, right
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
    ho, wo = out_hw(h, w, kh, kw, (sh, sw), pads, (dh, dw))
    check_shape(OP, "output", output, (n, co, ho, wo))
    if residual is not None:
        check_residual(output, residual)

    # 5. tiling (host) -> tile program (kernel)
    cube = cube_compute_dtype(input.dtype_name, cmt)
    fp = plan_formats(chip, OP if fused is None else "aclnnFusedConvolution", input, weight, bias, output, g,
                      residual)
    cp = fp.c_pad if fp is not None else c  # NC1HWC0: the Cube's K runs over whole C0 slices (formats.py)
    res = convolution_tiling(chip, (n, cp, h, w), (co, cp if fp is not None else cg, kh, kw), (ho, wo), (sh, sw),
                             g, input.itemsize, output.itemsize, cube, bias is not None)
    td = res.data
    args = {"shapes": [list(input.view_shape), list(weight.view_shape)], "output": list(output.view_shape),
            "dtype": input.dtype_name, "stride": [sh, sw], "padding": list(pads), "dilation": [dh, dw],
            "groups": g, "bias": bias is not None, "cubeMathType": cmt, "compute_dtype": compute_dtype_name(cube),
            "gemm": {"batch": td.batch, "m": td.m, "n": td.n, "k": td.k, "a_gm_reuse": td.a_gm_reuse}}
    act, name, epi = None, "Convolution", ()
    if fused is not None:  # aclnnFusedConvolution (graph mode)
        act, names = fused
        name, epi = "FusedConvolution", ((act[0],) if act[0] != "none" else ())
        args = dict(args, fused=list(names), activation=act[0], activation_alpha=act[1], activation_beta=act[2])
        epi = (("add",) if residual is not None else ()) + epi
    if fp is not None:
        args = dict(args, formats=fp.formats, c0=fp.c0)
    spec = tile_program(td, args, res.tiling_key, name=name, epilogue=epi,
                        residual_itemsize=residual.itemsize if residual is not None else 0)
    inputs = [input, weight] + ([bias] if bias is not None else []) + ([residual] if residual is not None else [])
    if fp is not None:  # TransData in, the Cube kernel on NC1HWC0 / FRACTAL_Z, TransData out (formats.py)
        body = packed_conv_body(fp, bias, (sh, sw), pads, (dh, dw),
                                compute=cube if input.dtype_name == "float32" else None, act=act, res_t=residual)
        kernels = fp.before + [PreparedKernel(spec, body)] + fp.after
        return aclOpExecutor(name, kernels, inputs, [output], fp.workspace,
                             info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key,
                                   "formats": fp.formats, "c0": fp.c0,
                                   "trans_data": [k.spec.args["conversion"] for k in fp.before + fp.after]})
    body = conv_body(input, weight, bias, output, (sh, sw), pads, (dh, dw), g,
                     compute=cube if input.dtype_name == "float32" else None, act=act, res_t=residual)
    return aclOpExecutor(name, [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key})


def aclnnConvolutionGetWorkspaceSize(input, weight, bias, stride, padding, dilation, transposed,  # noqa: N802,A002
                                     outputPadding, groups, output, cubeMathType=0):  # noqa: N803
    """Phase 1 of a convolution: 2-D NCHW (module doc), 1-D / 3-D or transposed
    (``op_api_nd``). Returns (workspace_size, executor, status): 161001 for a null
    input/weight/output/stride/padding/dilation; 161002 for a bad dtype, shape,
    attribute, groups, cubeMathType or outputPadding."""
    return prepare("Convolution", lambda chip: _build(chip, input, weight, bias, stride, padding, dilation,
                                                      transposed, outputPadding, groups, output, cubeMathType))


def aclnnConvolution(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Convolution: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("Convolution", workspace, workspaceSize, executor, stream)


def aclnnFusedConvolutionGetWorkspaceSize(input, weight, bias, stride, padding, dilation, transposed,  # noqa: N802,A002
                                          outputPadding, groups, fusedActivation, activationAlpha,  # noqa: N803
                                          activationBeta, originalOpNames, output, cubeMathType=0,
                                          residual=None):
    """Phase 1 of a convolution with a FixPipe epilogue: an npu-sim graph-mode kernel
    (not a CANN aclnn API; GE builds such fused Conv2D ops internally). Arguments as
    :func:`aclnnConvolutionGetWorkspaceSize` plus ``fusedActivation`` ("none", "relu",
    "leaky_relu" with slope ``activationAlpha``, "clip" to [``activationAlpha``,
    ``activationBeta``]) applied by FixPipe as L0C drains to GM, and
    ``originalOpNames`` (the graph ops folded into this kernel, as GE's
    ``_datadump_original_op_names`` attribute; recorded as trace ``args["fused"]``).
    ``residual``: an aclTensor of the output's view shape, dtype and storage format
    (NC1HWC0 when the output is packed), added to the fp32 accumulator before the
    activation (the A2 FixPipe's element-wise add with a second GM operand, see
    ``frontend.passes.epilogue``); 2-D forward convolutions only; its bytes are read
    per output tile on MTE2 (``cube_program``). Trace ``args["epilogue"]`` starts with
    "add". Returns (workspace_size, executor, status); 161002 for an unknown
    activation or a bad residual, else aclnnConvolution's statuses."""
    from ...matmul.common.cube_program import EPILOGUES

    def build(chip):
        if fusedActivation not in EPILOGUES:
            raise invalid("aclnnFusedConvolution", f"fusedActivation must be one of {sorted(EPILOGUES)}, "
                                                   f"got {fusedActivation!r}")
        act = (fusedActivation, float(activationAlpha), float(activationBeta))
        return _build(chip, input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups,
                      output, cubeMathType, fused=(act, tuple(originalOpNames)), residual=residual)
    return prepare("FusedConvolution", build)


def aclnnFusedConvolution(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of FusedConvolution (npu-sim graph mode): enqueue on ``stream``."""
    return execute("FusedConvolution", workspace, workspaceSize, executor, stream)
