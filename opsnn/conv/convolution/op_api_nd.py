"""Phase 1 of aclnnConvolution for the forms beyond the 2-D forward one: 1-D (NCL) and
3-D (NCDHW) inputs and ``transposed=true`` (1-D, 2-D, 3-D); ``op_api._build`` hands
over here after the null-pointer, tensor-type, dtype and cubeMathType checks.

CANN (ops-nn ``conv/convolution_forward/docs/aclnnConvolution.md``): aclnnConvolution
runs 1-D, 2-D and 3-D convolutions and, with ``transposed = true``, the transposed
(fractionally strided) convolution, with the same argument list: ``input, weight,
bias, stride, padding, dilation, transposed, outputPadding, groups, output,
cubeMathType``. For the transposed form the weight is [Cin, Cout/groups, *k] and each
output extent is ``(in - 1)*stride - 2*padding + dilation*(k - 1) + outputPadding + 1``.

Shapes and attributes (all 161002 when wrong):
  input [N, C, *S] with 1 or 3 spatial dims (or 2 when transposed); weight rank alike.
  stride, dilation: one value per spatial dim, each >= 1.
  padding: one value per spatial dim (symmetric) or two (begin, end per dim in order:
    [d_b, d_e, h_b, h_e, w_b, w_e]; npu-sim's extension, as the 2-D form's
    [top, bottom, left, right], for ONNX's asymmetric pads); each >= 0.
  outputPadding (transposed only): one value per spatial dim, each >= 0 and smaller
    than that dim's stride or dilation (the rule torch and CANN share); may be null
    when not transposed.
  forward: weight [Cout, C/groups, *k]; transposed: weight [C, Cout/groups, *k].
  bias [Cout]; output [N, Cout, *So].
"""
from __future__ import annotations

import math

from ...base.checks import check_rank, check_shape, invalid
from ...base.dtypes import aclFormat
from ...base.executor import PreparedKernel, aclOpExecutor
from ...matmul.common.cube_math import compute_dtype_name, cube_compute_dtype
from .infershape import infer_shape_nd, pads_begin_end
from .kernel import tile_program
from .kernel_nd import conv_nd_body
from .tiling import convolution_nd_tiling


def _ints(op: str, name: str, value, lengths: tuple[int, ...], minimum: int) -> list[int]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise invalid(op, f"{name} must be an aclIntArray, got {value!r}")
    vals = list(value)
    if len(vals) not in lengths:
        raise invalid(op, f"{name} must have length {' or '.join(map(str, lengths))}, got {len(vals)} ({vals})")
    if any(isinstance(v, bool) or not hasattr(v, "__index__") for v in vals):
        raise invalid(op, f"{name} values must be integers, got {vals}")
    vals = [int(v) for v in vals]
    if vals and min(vals) < minimum:
        raise invalid(op, f"{name} values must be >= {minimum}, got {vals}")
    return vals


def build_nd(op: str, chip, input, weight, bias, stride, padding, dilation, transposed, outputPadding,  # noqa: A002
             groups, output, cmt: int, fused=None):  # noqa: N803
    """The executor of a 1-D/3-D or transposed convolution (module doc); raises
    AclnnError(161002) for a bad shape or attribute, 561002 if no cube tile fits."""
    for name, t in (("input", input), ("weight", weight), ("output", output)):
        if t.storage_format == aclFormat.ACL_FORMAT_NHWC:
            raise invalid(op, f"{name} format NHWC is not supported; expected NCL, NCHW, NCDHW or ND")
    check_rank(op, "input", input, (3, 4, 5) if transposed else (3, 5))
    nsp = len(input.view_shape) - 2
    check_rank(op, "weight", weight, (nsp + 2,))
    st = _ints(op, "stride", stride, (nsp,), 1)
    dl = _ints(op, "dilation", dilation, (nsp,), 1)
    pad = _ints(op, "padding", padding, (nsp, 2 * nsp), 0)
    pads_be = pads_begin_end(pad, nsp)
    op_pad = [0] * nsp
    if transposed:
        if outputPadding is None:
            raise invalid(op, "outputPadding must not be null when transposed is true")
        op_pad = _ints(op, "outputPadding", outputPadding, (nsp,), 0)
        for i, (o, s, d) in enumerate(zip(op_pad, st, dl)):
            if o >= max(s, d):
                raise invalid(op, f"outputPadding[{i}] = {o} must be smaller than stride {s} or dilation {d}")
    if isinstance(groups, bool) or not hasattr(groups, "__index__") or int(groups) < 1:
        raise invalid(op, f"groups must be an integer >= 1, got {groups!r}")
    g = int(groups)
    n, c, *sizes = input.view_shape
    w0, w1, *kernel = weight.view_shape
    if min(c, *sizes) < 1 or min(w0, w1, *kernel) < 1:
        raise invalid(op, f"input {list(input.view_shape)} and weight {list(weight.view_shape)} must have "
                          "non-zero channel, spatial and kernel dims")
    if transposed:
        if w0 != c or c % g:
            raise invalid(op, f"transposed weight {list(weight.view_shape)}: dim 0 must be the input channels "
                              f"C={c}, divisible by groups={g}")
        cout = w1 * g
    else:
        cout = w0
        if c % g or cout % g:
            raise invalid(op, f"groups={g} must divide input channels C={c} and output channels Cout={cout}")
        if w1 * g != c:
            raise invalid(op, f"weight shape {list(weight.view_shape)}: dim 1 must be C/groups = {c // g} "
                              f"(input C={c}, groups={g})")
        eff = [d * (k - 1) + 1 for d, k in zip(dl, kernel)]
        if any(s + pb + pe < e for s, (pb, pe), e in zip(sizes, pads_be, eff)):
            raise invalid(op, f"kernel extent {eff} exceeds the padded input")
    if bias is not None:
        check_shape(op, "bias", bias, (cout,))
    outs = list(infer_shape_nd(input.view_shape, None, weight.view_shape, st, pad, dl, bool(transposed), op_pad,
                               g)[0][0][2:])
    if min(outs) < 1:
        raise invalid(op, f"output size {outs} is empty for input {list(input.view_shape)}")
    check_shape(op, "output", output, (n, cout, *outs))

    cube = cube_compute_dtype(input.dtype_name, cmt)
    res = convolution_nd_tiling(chip, n, c, cout, kernel, outs, st, g, input.itemsize, output.itemsize, cube,
                                bias is not None, bool(transposed))
    td = res.data
    args = {"shapes": [list(input.view_shape), list(weight.view_shape)], "output": list(output.view_shape),
            "dtype": input.dtype_name, "stride": st, "padding": [p for be in pads_be for p in be], "dilation": dl,
            "groups": g, "bias": bias is not None, "cubeMathType": cmt, "compute_dtype": compute_dtype_name(cube),
            "transposed": bool(transposed), "strategy": res.strategy,
            "gemm": {"batch": td.batch, "m": td.m, "n": td.n, "k": td.k, "a_gm_reuse": td.a_gm_reuse}}
    if transposed:
        args["outputPadding"] = op_pad
        args["useful_macs"] = n * math.prod(sizes) * (c // g) * cout * math.prod(kernel)
    act, name, epi = None, "Convolution", ()
    if fused is not None:
        act, names = fused
        name, epi = "FusedConvolution", ((act[0],) if act[0] != "none" else ())
        args = dict(args, fused=list(names), activation=act[0], activation_alpha=act[1], activation_beta=act[2])
    spec = tile_program(td, args, res.tiling_key, name=name, epilogue=epi)
    inputs = [input, weight] + ([bias] if bias is not None else [])
    body = conv_nd_body(input, weight, bias, output, st, pads_be, dl, g, transposed=bool(transposed),
                        output_padding=op_pad, compute=cube if input.dtype_name == "float32" else None, act=act)
    return aclOpExecutor(name, [PreparedKernel(spec, body)], inputs, [output], 0,
                         info={"tiling": spec.args["tiling"], "tiling_key": spec.tiling_key, "strategy": res.strategy})
