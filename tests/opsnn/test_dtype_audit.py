"""The dtype audit of issue 10: every aclnn op with a declared dtype list (its OpDef's
``dtypes``) against the nine dtypes the issue names (FLOAT, FLOAT16, BF16, INT8, UINT8,
INT16, INT32, INT64, BOOL).

For each (op, dtype), through the Pythonic layer on the tiny chip:
* a declared dtype runs a small case, and its output is compared with the same op's
  FLOAT run on the same values (the inputs cast to float32), rounded to the output's
  dtype; the FLOAT paths themselves are checked against float64 goldens in each op's
  own tests, so this checks every other dtype transitively against float64. Ops
  without a FLOAT path (the int8 Cube, DequantizeLinear, the bitwise ops) are only run;
* an undeclared dtype must be refused in phase 1 with 161002 whose message names the
  dtype (``ACL_INT16`` ...), never a crash or another status.

``SAMPLES`` builds a valid call per op where the default (every required tensor a
[2, 3, 4] array of small positive values, scalars 2) does not fit. ``python -m
tests.opsnn.test_dtype_audit`` prints the table (op, dtypes run, dtypes refused).
Ops whose OpDef lists no dtypes (the shape and index ops: any dtype, moved as bytes)
are not audited here.
"""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.base.op_def import ATTRIBUTE, INPUT, INT_ARRAY, SCALAR, TENSOR_LIST
from opsnn.functional import FUNCTIONS, all_op_defs
from opsnn.pythonic import OpError
from tests.opsnn.transform.helpers import BF16

NINE = {"FLOAT": np.dtype(np.float32), "FLOAT16": np.dtype(np.float16), "BF16": BF16, "INT8": np.dtype(np.int8),
        "UINT8": np.dtype(np.uint8), "INT16": np.dtype(np.int16), "INT32": np.dtype(np.int32),
        "INT64": np.dtype(np.int64), "BOOL": np.dtype(np.bool_)}
SHAPE = (2, 3, 4)


def _vals(rng, shape, dt):
    """Small positive values (1..3 for integers, 0.3..3.7 for floats), exact in every dtype."""
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dt.kind in "iu":
        return rng.integers(1, 4, shape).astype(dt)
    return (np.round(rng.uniform(0.3, 3.7, shape) * 8) / 8).astype(dt)


def _nchw(rng, dt):
    return _vals(rng, (1, 2, 6, 6), dt)


#: op_type -> f(rng, dt) -> kwargs of the Pythonic function (values in dtype ``dt``
#: where the op takes it); ops absent here use the default call (module doc)
SAMPLES = {
    "Lrn": lambda r, d: dict(self=_nchw(r, d), size=3),
    "Threshold": lambda r, d: dict(self=_vals(r, SHAPE, d), threshold=2, value=0),
    "Clamp": lambda r, d: dict(self=_vals(r, SHAPE, d), clip_value_min=1, clip_value_max=3),
    "ClampMin": lambda r, d: dict(self=_vals(r, SHAPE, d), clip_value_min=2),
    "ClampMax": lambda r, d: dict(self=_vals(r, SHAPE, d), clip_value_max=2),
    "ClampTensor": lambda r, d: dict(self=_vals(r, SHAPE, d), clip_value_min=np.ones(SHAPE, d),
                                     clip_value_max=np.full(SHAPE, 3, d)),
    "SWhere": lambda r, d: dict(condition=r.integers(0, 2, SHAPE).astype(bool), self=_vals(r, SHAPE, d),
                                other=_vals(r, SHAPE, d)),
    "Where": lambda r, d: dict(condition=r.integers(0, 2, SHAPE).astype(bool), self=_vals(r, SHAPE, d),
                               other=_vals(r, SHAPE, d)),
    "Softmax": lambda r, d: dict(self=_vals(r, SHAPE, d), dim=-1),
    "LogSoftmax": lambda r, d: dict(self=_vals(r, SHAPE, d), dim=-1),
    "Hardmax": lambda r, d: dict(self=_vals(r, SHAPE, d), dim=-1),
    "Prelu": lambda r, d: dict(self=_nchw(r, d), weight=_vals(r, (2,), d)),
    "Convolution": lambda r, d: dict(input=_nchw(r, d), weight=_vals(r, (3, 2, 3, 3), d), stride=[1, 1],
                                     padding=[1, 1], dilation=[1, 1], transposed=False, output_padding=[0, 0],
                                     groups=1, cube_math_type=0),
    "QuantConvolution": lambda r, d: dict(input=_nchw(r, d), weight=_vals(r, (3, 2, 3, 3), d),
                                          scale=np.full(1, 0.5, np.float32), stride=[1, 1], padding=[1, 1],
                                          dilation=[1, 1]),
    "Matmul": lambda r, d: dict(self=_vals(r, (3, 4), d), mat2=_vals(r, (4, 5), d), cube_math_type=0),
    "Mm": lambda r, d: dict(self=_vals(r, (3, 4), d), mat2=_vals(r, (4, 5), d), cube_math_type=0),
    "BatchMatMul": lambda r, d: dict(self=_vals(r, (2, 3, 4), d), mat2=_vals(r, (2, 4, 5), d), cube_math_type=0),
    "Addmm": lambda r, d: dict(self=_vals(r, (3, 5), d), mat1=_vals(r, (3, 4), d), mat2=_vals(r, (4, 5), d), beta=1,
                               alpha=1, cube_math_type=0),
    "QuantMatmulV4": lambda r, d: dict(x1=_vals(r, (3, 4), d), x2=_vals(r, (4, 5), d),
                                       scale=np.full(1, 0.5, np.float32)),
    "BatchNorm": lambda r, d: dict(input=_nchw(r, d), weight=_vals(r, (2,), d), bias=_vals(r, (2,), d),
                                   running_mean=_vals(r, (2,), d), running_var=_vals(r, (2,), d)),
    "GroupNorm": lambda r, d: dict(self=_nchw(r, d), gamma=_vals(r, (2,), d), beta=_vals(r, (2,), d), n=1, c=2,
                                   hx_w=36, group=2),
    "LayerNorm": lambda r, d: dict(input=_vals(r, SHAPE, d), weight=_vals(r, (4,), d), bias=_vals(r, (4,), d),
                                   normalized_shape=[4]),
    "RmsNorm": lambda r, d: dict(x=_vals(r, SHAPE, d), gamma=_vals(r, (4,), d)),
    "AddRmsNorm": lambda r, d: dict(x1=_vals(r, SHAPE, d), x2=_vals(r, SHAPE, d), gamma=_vals(r, (4,), d)),
    "AdaptiveAvgPool2d": lambda r, d: dict(self=_nchw(r, d), output_size=[2, 2]),
    "AvgPool2d": lambda r, d: dict(self=_nchw(r, d), kernel_size=[2, 2]),
    "LpPool": lambda r, d: dict(self=_nchw(r, d), kernel_shape=[2, 2]),
    "MaxPool2dWithIndices": lambda r, d: dict(self=_nchw(r, d), kernel_size=[2, 2]),
    "MaxPool": lambda r, d: dict(self=_nchw(r, d), kernel_shape=[2, 2]),
    "MaxPool3dWithArgmax": lambda r, d: dict(self=_vals(r, (1, 2, 4, 4, 4), d), kernel_size=[2, 2, 2]),
    "AvgPool3d": lambda r, d: dict(self=_vals(r, (1, 2, 4, 4, 4), d), kernel_size=[2, 2, 2]),
    "ApplyRotaryPosEmb": lambda r, d: dict(query_ref=_vals(r, (1, 2, 2, 4), d), key_ref=_vals(r, (1, 2, 2, 4), d),
                                           cos=_vals(r, (1, 2, 1, 4), d) / 4, sin=_vals(r, (1, 2, 1, 4), d) / 4),
    "Quantize": lambda r, d: dict(x=_vals(r, SHAPE, d), scales=np.full(1, 0.5, d if d in (np.float16, BF16) else
                                                                             np.float32)),
    "DequantizeLinear": lambda r, d: dict(x=_vals(r, SHAPE, d), scale=np.full(1, 0.5, np.float32)),
    # blocked: one scale per block of 2 along the last axis
    "QuantizeBlock": lambda r, d: dict(x=_vals(r, SHAPE, d), axis=-1, block_size=2,
                                       scales=np.full(SHAPE[:-1] + (2,), 0.5, d if d in (np.float16, BF16) else
                                                      np.float32)),
    "DequantizeLinearBlock": lambda r, d: dict(x=_vals(r, SHAPE, d), axis=-1, block_size=2,
                                               scale=np.full(SHAPE[:-1] + (2,), 0.5, np.float32)),
    "Mean": lambda r, d: dict(self=_vals(r, SHAPE, d), dim=[-1], dtype=_acl(d)),
    # a BOOL sum counts in INT64 (CANN: the out dtype may differ from self's)
    "ReduceSum": lambda r, d: dict(self=_vals(r, SHAPE, d), dim=[-1], dtype=_acl(np.dtype(np.int64) if d == np.bool_
                                                                              else d)),
    "PowTensorScalar": lambda r, d: dict(self=_vals(r, SHAPE, d), exponent=2),
    "PowTensorTensor": lambda r, d: dict(self=_vals(r, SHAPE, d),
                                         exponent=_vals(r, SHAPE, np.dtype(np.int32) if d == np.bool_ else d)),
    "FlashAttentionScore": lambda r, d: dict(query=_vals(r, (1, 2, 4, 8), d), key=_vals(r, (1, 2, 4, 8), d),
                                             value=_vals(r, (1, 2, 4, 8), d), scale_value=0.25, keep_prob=1.0,
                                             pre_tokens=65536, next_tokens=65536, head_num=2,
                                             input_layout="BNSD", inner_precise=0, sparse_mode=0),
    "Cast": lambda r, d: dict(self=_vals(r, SHAPE, d), dtype=_acl(np.dtype(np.float32))),
}


def _acl(dt):
    from opsnn.base.dtypes import from_numpy_dtype
    return from_numpy_dtype(dt)


def _default(opdef, rng, dt):
    kw = {}
    for p in opdef.params:
        if p.role == INPUT and not p.optional:
            if p.kind == SCALAR:
                kw[p.py_name] = True if dt == np.bool_ else 2
            elif p.kind == TENSOR_LIST:
                kw[p.py_name] = [_vals(rng, SHAPE, dt), _vals(rng, SHAPE, dt)]
            else:
                kw[p.py_name] = _vals(rng, SHAPE, dt)
        elif p.role == ATTRIBUTE and not p.has_default:
            kw[p.py_name] = [-1] if p.kind == INT_ARRAY else (2 if p.kind == SCALAR else -1)
        elif p.py_name == "alpha" and dt == np.bool_:
            kw["alpha"] = True   # an INT64 alpha cannot be cast to a BOOL result
    return kw


DEFS = {d.op_type: d for d in all_op_defs() if d.dtypes}

#: declared dtypes that run only with an operand of another dtype: the same-dtype call
#: must be refused with 161002 naming the dtype (CANN's docs say which combinations)
MIXED_ONLY = {
    ("Sub", "BOOL"): "BOOL - BOOL is refused (a BOOL self runs with a numeric other)",
    ("Subs", "BOOL"): "BOOL - BOOL is refused",
    ("InplaceSub", "BOOL"): "BOOL - BOOL is refused; a numeric other gives a result a BOOL selfRef cannot hold",
    ("InplaceSubs", "BOOL"): "as InplaceSub",
}


def _upload(session, v):
    """bf16 arrays go up as DeviceArrays (the Pythonic layer's array check does not know
    ml_dtypes' bfloat16, a kind "V" dtype)."""
    if isinstance(v, np.ndarray):
        return session.to_device(v)
    if isinstance(v, list) and v and isinstance(v[0], np.ndarray):
        return [session.to_device(a) for a in v]
    return v


def _host(out):
    outs = out if isinstance(out, tuple) else (out,)
    return [np.asarray(o.numpy()) for o in outs if o is not None]


def run_case(session, op_type: str, name: str):
    """("run", outputs) / ("refused", code, message) / ("crash", text) for op_type in dtype ``name``."""
    opdef = DEFS[op_type]
    dt = NINE[name]
    kw = (SAMPLES.get(op_type) or (lambda r, d: _default(opdef, r, d)))(np.random.default_rng(7), dt)
    try:
        out = FUNCTIONS[opdef.name](**{k: _upload(session, v) for k, v in kw.items()})
        return ("run", _host(out), kw)
    except OpError as e:
        return ("refused", e.code, str(e))
    except Exception as e:  # noqa: BLE001 - the audit reports crashes instead of stopping
        return ("crash", f"{type(e).__name__}: {e}")


def _as_float_kw(kw, dt):
    return {k: (v.astype(np.float32) if isinstance(v, np.ndarray) and v.dtype == dt and k != "condition" else
                [a.astype(np.float32) for a in v] if isinstance(v, list) and v and isinstance(v[0], np.ndarray)
                else v) for k, v in kw.items()}


def _compare(session, op_type, name, outs, kw):
    """The dtype-``name`` outputs against the FLOAT run on the same values."""
    opdef = DEFS[op_type]
    dt = NINE[name]
    if name == "FLOAT" or "ACL_FLOAT" not in {a.name for a in opdef.dtypes}:
        return
    fkw = _as_float_kw(kw, dt)
    if "dtype" in fkw and op_type in ("Mean", "ReduceSum"):
        fkw["dtype"] = _acl(np.dtype(np.float32))
    ref = _host(FUNCTIONS[opdef.name](**{k: _upload(session, v) for k, v in fkw.items()}))
    for got, want in zip(outs, ref):
        if got.dtype.kind in "iub":
            # the FLOAT result cast to the output dtype (integers wrap, as numpy's and the kernels' casts)
            with np.errstate(invalid="ignore"):   # a NaN/inf FLOAT result casts to some integer, as the kernels'
                w = want.astype(got.dtype) if want.dtype.kind in "iub" else \
                    np.trunc(want).astype(np.int64).astype(got.dtype)
            np.testing.assert_array_equal(got, w, err_msg=f"{op_type} {name}")
        else:
            tol = {np.dtype(np.float16): 2e-2, BF16: 6e-2}.get(got.dtype, 1e-5)
            with np.errstate(over="ignore"):   # overflow to inf in fp16 included
                w = np.asarray(want).astype(got.dtype).astype(np.float64)
            finite = np.isfinite(w)
            np.testing.assert_allclose(np.asarray(got, np.float64)[finite], w[finite], rtol=tol,
                                       atol=tol * (np.abs(w[finite]).max(initial=0) + 1), err_msg=f"{op_type} {name}")


@pytest.fixture(scope="module")
def session():
    from acl_runtime import Session
    with Session(chip="tiny") as s:
        yield s


@pytest.mark.parametrize("op_type", sorted(DEFS))
def test_dtype_audit(session, op_type):
    declared = {a.name.removeprefix("ACL_") for a in DEFS[op_type].dtypes}
    problems = []
    for name in NINE:
        res = run_case(session, op_type, name)
        if res[0] == "crash":
            problems.append(f"{name}: crashed: {res[1]}")
        elif name in declared:
            if res[0] != "run" and not ((op_type, name) in MIXED_ONLY and res[1] == 161002
                                        and f"ACL_{name}" in res[2]):
                problems.append(f"{name}: declared but refused: {res[2]}")
            elif res[0] != "run":
                continue
            else:
                _compare(session, op_type, name, res[1], res[2])
        elif res[0] == "run":
            problems.append(f"{name}: not declared but runs")
        elif res[1] != 161002 or f"ACL_{name}" not in res[2]:
            problems.append(f"{name}: refused with {res[1]} without naming ACL_{name}: {res[2]}")
    assert not problems, "\n".join(problems)


def audit_table(session) -> list[tuple[str, list[str], list[str]]]:
    """(op, dtypes run, dtypes refused) for every audited op."""
    rows = []
    for op_type in sorted(DEFS):
        ran, refused = [], []
        for name in NINE:
            (ran if run_case(session, op_type, name)[0] == "run" else refused).append(name)
        rows.append((op_type, ran, refused))
    return rows


if __name__ == "__main__":
    from acl_runtime import Session
    with Session(chip="tiny") as s:
        print("| op | dtypes run | dtypes refused (161002, named) |\n|---|---|---|")
        for op, ran, refused in audit_table(s):
            print(f"| {op} | {', '.join(ran) or '-'} | {', '.join(refused) or '-'} |")
