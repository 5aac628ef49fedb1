"""The onnx node test cases, how each one runs through the frontend, and what is
expected to fail (see the package docstring for the comparison rules)."""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

#: the ops issue #5 lists for transformer exports, in table order
OPS = ("MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "LayerNormalization", "Softmax", "Erf", "Gelu", "Gather",
       "Transpose", "Reshape", "Unsqueeze", "Squeeze", "Concat", "Slice", "Shape", "Cast", "Where", "Equal", "Expand",
       "ReduceSum", "ReduceMean", "Pow", "Sqrt", "Clip", "Identity", "Constant", "ConstantOfShape",
       # issue 10: activations, pointwise math and logic
       "Sigmoid", "Tanh", "LeakyRelu", "Elu", "Selu", "Celu", "Softplus", "Softsign", "HardSigmoid", "HardSwish",
       "Mish", "Swish", "ThresholdedRelu", "Shrink", "PRelu", "LogSoftmax", "Hardmax",
       "Exp", "Log", "Abs", "Neg", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Sin", "Cos", "Tan", "Asin", "Acos",
       "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "IsNaN", "IsInf", "Not", "BitwiseNot", "Greater", "Less",
       "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Max", "Min",
       "Mean", "Sum", "Mod", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
       "ReduceLogSum", "ReduceLogSumExp",
       # issue 10: normalization (aclnnGroupNorm) and the padding, shape and index ops
       "GroupNormalization", "InstanceNormalization", "RMSNormalization",
       "Pad", "Split", "Tile", "DepthToSpace", "SpaceToDepth", "Trilu", "Range", "OneHot", "CumSum", "GatherElements",
       "GatherND", "ScatterElements", "ScatterND", "TopK", "ArgMax", "ArgMin", "Resize", "Upsample", "Einsum",
       # CNN ops lowered since the first models
       "Conv", "BatchNormalization", "MaxPool", "AveragePool", "GlobalAveragePool", "LRN", "Relu", "Flatten",
       "Dropout", "Size",
       # issue 10: convolution and pooling
       "ConvTranspose", "GlobalMaxPool", "LpPool", "MaxUnpool", "Col2Im", "Scatter",
       # issue 10: small ops over existing kernels
       "CastLike", "EyeLike", "CenterCropPad",
       # issue 10: transformer ops of opset 23
       "RotaryEmbedding", "Attention",
       # issue 10: quantization (opsnn/quant, aclnnQuantMatmulV4 and aclnnQuantConvolution on the int8 Cube)
       "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "MatMulInteger", "QLinearMatMul",
       "ConvInteger", "QLinearConv")

#: op -> module of onnx.backend.test.case.node that holds its cases (the op's lower-case name unless listed)
_MODULE_NAMES = {"GreaterOrEqual": "greater_or_equal", "LessOrEqual": "less_or_equal", "And": "and_", "Or": "or_",
                 "Not": "not_", "ReduceLogSum": "reduce_log_sum", "ReduceLogSumExp": "reduce_log_sum_exp",
                 "InstanceNormalization": "instance_normalization", "Range": "rangeop",
                 "BatchNormalization": "batch_normalization",
                 "CenterCropPad": "center_crop_pad", "RMSNormalization": "rmsnormalization",
                 "RotaryEmbedding": "rotaryembedding"}
MODULES = {op: _MODULE_NAMES.get(op, op.lower()) for op in OPS}

#: op -> input positions that exported models hold as constants (bound as initializers)
STATIC_INPUTS = {"Reshape": (1,), "Unsqueeze": (1,), "Squeeze": (1,), "Slice": (1, 2, 3, 4), "Expand": (1,),
                 "ReduceSum": (1,), "ReduceMean": (1,), "ConstantOfShape": (0,),
                 **{op: (1,) for op in ("ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceL1",
                                        "ReduceL2", "ReduceLogSum", "ReduceLogSumExp")},
                 "Pad": (1, 2, 3), "Split": (1,), "Tile": (1,), "Trilu": (1,), "Range": (0, 1, 2), "OneHot": (1,),
                 "CumSum": (1,), "TopK": (1,), "Resize": (1, 2, 3), "Upsample": (1,),
                 "MaxUnpool": (2,), "CenterCropPad": (1,), "Col2Im": (1, 2),
                 # quantization: scales, zero points and weights are initializers in exported models
                 "QuantizeLinear": (1, 2), "DequantizeLinear": (1, 2), "MatMulInteger": (1, 2, 3),
                 "QLinearMatMul": (1, 2, 3, 4, 5, 6, 7), "ConvInteger": (1, 2, 3),
                 "QLinearConv": (1, 2, 3, 4, 5, 6, 7, 8)}

# The failure reasons: each starts with one of issue 10's short list (strings, sequences and
# optionals, control flow, training optimizers, classical ML ops, random generators, a dtype
# npu-sim does not have), then the detail.
_DTYPE = ("a dtype npu-sim does not have: outside its aclDataType set (DESIGN.md section 5; no uint16/32/64, "
          "float8/float4, int4/int2)")
_STRING = "strings: string tensors are outside npu-sim's aclDataType set"
_MAXPOOL_U8 = ("a dtype npu-sim does not have for this op: uint8 MaxPool (CANN's aclnnMaxPool takes FLOAT, FLOAT16 "
               "and BF16 only, 161002)")
_NARROW = ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "FLOAT4E2M1", "INT4", "UINT4", "INT2",
           "UINT2")

#: case name -> why it is expected to fail (kept in step with docs/onnx_node_tests.md)
KNOWN_FAILURES: dict[str, str] = {
    "test_top_k_uint64": _DTYPE,
    "test_maxpool_2d_uint8": _MAXPOOL_U8,
    **{n: "random generators: training-mode Dropout draws a random mask" for n in
       ("test_training_dropout", "test_training_dropout_default", "test_training_dropout_default_mask",
        "test_training_dropout_mask", "test_training_dropout_zero_ratio", "test_training_dropout_zero_ratio_mask")},
    **{f"test_{op}_uint{bits}": _DTYPE for op in ("add", "sub", "mul", "div", "equal") for bits in (16, 32, 64)},
    **{f"test_pow_types_float32_uint{bits}": _DTYPE for bits in (32, 64)},
    **{f"test_{op}_uint{bits}": _DTYPE for op in ("greater", "less", "greater_equal", "less_equal", "max", "min",
                                                  "mod") for bits in (16, 32, 64)},
    **{f"test_bitwise_{op}_ui64_bcast_3v1d": _DTYPE for op in ("and", "or", "xor")},
    "test_bitwise_not_3d": _DTYPE,
    "test_equal_string": _STRING,
    "test_equal_string_broadcast": _STRING,
    **{f"test_{op}_{a}_to_{b}{x}": _DTYPE for op, x in (("cast", ""), ("castlike", ""), ("castlike", "_expanded"))
       for a, b in
       [(x, y) for x in ("FLOAT", "FLOAT16") for y in _NARROW]
       + [(x, y) for x in _NARROW if x.startswith("FLOAT") for y in ("FLOAT", "FLOAT16")]
       + [(x, y) for x in ("INT4", "INT2") for y in ("FLOAT", "FLOAT16", "INT8")]
       + [(x, y) for x in ("UINT4", "UINT2") for y in ("FLOAT", "FLOAT16", "UINT8")]},
    **{f"test_{op}_no_saturate_{a}_to_{b}{x}": _DTYPE for op, x in (("cast", ""), ("castlike", ""),
                                                                     ("castlike", "_expanded"))
       for a in ("FLOAT", "FLOAT16") for b in ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ")},
    **{f"test_cast_e8m0_{case}": _DTYPE for case in ("FLOAT16_to_FLOAT8E8M0", "FLOAT8E8M0_to_FLOAT",
                                                     "FLOAT8E8M0_to_FLOAT16", "FLOAT_to_FLOAT8E8M0")},
    # quantization (issue 10): float8 / float4 / int4 / int2 / uint16 cases are dtypes npu-sim lacks
    **{f"test_{op}_{t}": _DTYPE for op in ("quantizelinear", "dequantizelinear")
       for t in ("e4m3fn", "e5m2", "float4e2m1", "int2", "int4", "uint16", "uint2", "uint4")},
    **{f"test_dequantizelinear_{t}": _DTYPE for t in ("e4m3fn_float16", "e4m3fn_zero_point")},
    "test_identity_opt": "sequences and optionals: an optional-typed input (the frontend runs tensors only)",
    "test_identity_sequence": "sequences and optionals: a sequence-typed input (the frontend runs tensors only)",
}

HALF_RTOL = 1e-2


@dataclass
class NodeCase:
    """One onnx node test case: the model, its inputs and expected outputs (numpy)."""

    name: str
    op: str
    model: object
    inputs: list
    outputs: list
    rtol: float
    atol: float


@dataclass
class CaseResult:
    """Outcome of one case: ``status`` is "pass", "unsupported", "numbers" or "error"."""

    name: str
    op: str
    status: str
    reason: str = ""
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.status == "pass"


@dataclass
class OpSummary:
    op: str
    results: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def total(self) -> int:
        return len(self.results)


def collect(ops: Iterable[str] = OPS) -> list[NodeCase]:
    """The single-node cases of ``ops`` (importing each op's case module runs its
    ``expect`` calls once per process)."""
    import onnx.backend.test.case.node as node_mod
    ops = tuple(ops)
    node_mod._TargetOpType = None  # collect every op a module exports
    for op in ops:
        importlib.import_module(f"onnx.backend.test.case.node.{MODULES[op]}")
    out = []
    seen = set()
    for tc in node_mod._NodeTestCases:
        m = tc.model
        if m is None or len(m.graph.node) != 1 or tc.name in seen:
            continue
        op = m.graph.node[0].op_type
        if op not in ops or m.graph.node[0].domain not in ("", "ai.onnx"):
            continue
        seen.add(tc.name)
        ins, outs = tc.data_sets[0]
        out.append(NodeCase(tc.name, op, m, list(ins), list(outs), float(tc.rtol), float(tc.atol)))
    order = {op: i for i, op in enumerate(ops)}
    out.sort(key=lambda c: (order[c.op], c.name))
    return out


def _as_model(case: NodeCase):
    """The case's model with :data:`STATIC_INPUTS` turned into initializers; returns
    (model, runtime feeds)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.ModelProto()
    m.CopyFrom(case.model)
    node = m.graph.node[0]
    static_pos = STATIC_INPUTS.get(case.op, ())
    static_names = {node.input[i] for i in static_pos if i < len(node.input) and node.input[i]}
    feeds = {}
    keep = []
    for vi, arr in zip(case.model.graph.input, case.inputs):
        arr = _as_array(arr)
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"input {vi.name!r} is a {type(arr).__name__}, not a tensor")
        if vi.name in static_names:
            m.graph.initializer.append(numpy_helper.from_array(arr, vi.name))
        else:
            feeds[vi.name] = arr
            keep.append(vi)
    del m.graph.input[:]
    m.graph.input.extend(keep)
    return m, feeds


def _as_array(x):
    """numpy scalars -> 0-d arrays, TensorProto -> array (bfloat16/float8 via ml_dtypes);
    sequences and optionals are returned unchanged (unsupported)."""
    import onnx
    from onnx import numpy_helper
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, onnx.TensorProto):
        return numpy_helper.to_array(x)
    return x


def _compare(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> str:
    """"" if ``got`` matches ``want``, else a short reason."""
    want = np.asarray(want)
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} instead of {want.dtype}"
    if got.shape != want.shape:
        return f"shape {list(got.shape)} instead of {list(want.shape)}"
    if want.dtype.kind in "biuU" or want.size == 0:
        bad = int(np.sum(got != want))
        return f"{bad} of {want.size} elements differ" if bad else ""
    g, w = got.astype(np.float64), want.astype(np.float64)
    if want.dtype.itemsize <= 2:
        rtol = max(rtol, HALF_RTOL)
    nan_w, nan_g = np.isnan(w), np.isnan(g)
    if (nan_w != nan_g).any():
        return f"NaN in {int(nan_g.sum())} elements, expected {int(nan_w.sum())}"
    ok = np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    if ok.all():
        return ""
    err = np.abs(g - w)[~ok].max()
    return f"{int((~ok).sum())} of {want.size} elements off (max abs err {err:.3g}, rtol {rtol:g})"


def run_case(case: NodeCase, chip: str = "tiny") -> CaseResult:
    """Run one case on a fresh ACL context of ``chip``; never raises."""
    from acl_runtime import acl

    from ..errors import DeviceError, UnsupportedModelError
    from ..onnx_import import load_onnx
    from ..profiling import acl_initialized
    from ..runner import ModelRunner
    t0 = time.perf_counter()

    def done(status: str, reason: str = "") -> CaseResult:
        return CaseResult(case.name, case.op, status, reason, time.perf_counter() - t0)

    try:
        model, feeds = _as_model(case)
    except TypeError as e:
        return done("unsupported", str(e))
    if acl_initialized():
        acl.finalize()
    acl.init(chip=chip)
    acl.rt.set_device(0)
    try:
        graph = load_onnx(model, overrides=feeds)
        runner = ModelRunner(graph)
        runner.prepare()
        res = runner.run(feeds)
    except UnsupportedModelError as e:
        return done("unsupported", str(e))
    except ValueError as e:
        if "no aclDataType" in str(e):
            return done("unsupported", f"dtype: {e}")
        return done("error", f"{type(e).__name__}: {e}")
    except DeviceError as e:
        return done("error", f"{type(e).__name__}: {e}")
    except Exception as e:  # noqa: BLE001 - a harness: report, never crash
        return done("error", f"{type(e).__name__}: {e}")
    finally:
        if acl_initialized():
            acl.finalize()
    names = [o.name for o in case.model.graph.output]
    for name, want in zip(names, case.outputs):
        want = _as_array(want)
        if not isinstance(want, np.ndarray):
            return done("unsupported", f"output {name!r} is a {type(want).__name__}, not a tensor")
        why = _compare(np.asarray(res.outputs[name]), want, case.rtol, case.atol)
        if why:
            return done("numbers", f"output {name!r}: {why}")
    return done("pass")


def run_all(ops: Iterable[str] = OPS, chip: str = "tiny", progress=None) -> dict[str, OpSummary]:
    """Run every case of ``ops``; returns op -> :class:`OpSummary` (in ``ops`` order)."""
    cases = collect(ops)
    out = {op: OpSummary(op) for op in ops}
    for i, case in enumerate(cases):
        out[case.op].results.append(run_case(case, chip))
        if progress:
            progress(i + 1, len(cases))
    return out


def regressions(summary: dict[str, OpSummary]) -> list[CaseResult]:
    """Failures not in :data:`KNOWN_FAILURES` (a regression or a new case)."""
    return [r for s in summary.values() for r in s.results if not r.passed and r.name not in KNOWN_FAILURES]


def fixed(summary: dict[str, OpSummary]) -> list[str]:
    """Known failures that now pass (remove them from :data:`KNOWN_FAILURES`)."""
    return [r.name for s in summary.values() for r in s.results if r.passed and r.name in KNOWN_FAILURES]
