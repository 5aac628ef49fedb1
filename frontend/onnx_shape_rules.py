"""More direct output-shape rules for :func:`frontend.onnx_infer.fast_output_shape`:
Softmax, LRN and one-input Dropout (the input's shape), Transpose, Flatten,
GlobalAveragePool/GlobalMaxPool, MaxPool/AveragePool with explicit pads and
``ceil_mode`` 0, Gemm and Reshape with a constant shape.

Why: a CNN's load ran onnx's shape inference for these few nodes only, and the first
``onnx.shape_inference`` call of a process builds onnx's whole schema registry
(14-25 ms; see :mod:`frontend.onnx_signatures`). Each rule computes what onnx's
inference computes (onnx/defs: convPoolShapeInference, the Gemm, Reshape, Transpose and
Flatten inference functions) for the valid nodes it accepts and returns None for
anything it is unsure of, which then goes to onnx; tests/perf/test_graphprep_infer.py
(whole models) and tests/perf/test_shape_rules.py (random nodes) compare both.
"""
from __future__ import annotations

import math

import numpy as np
import onnx

_INT = onnx.AttributeProto.INT
_INTS = onnx.AttributeProto.INTS

#: ops these rules know (onnx_infer.fast_output_shape dispatches on it)
OPS = frozenset({"Softmax", "LRN", "Dropout", "Transpose", "Flatten", "GlobalAveragePool", "GlobalMaxPool",
                 "MaxPool", "AveragePool", "Gemm", "Reshape"})


def _attrs(node: onnx.NodeProto) -> dict | None:
    """name -> int or list of ints for INT / INTS attributes; None when the node has an
    attribute of another type that a rule would read (the rules then defer to onnx)."""
    out = {}
    for a in node.attribute:
        if a.type == _INT:
            out[a.name] = a.i
        elif a.type == _INTS:
            out[a.name] = list(a.ints)
        elif a.name == "auto_pad":
            if a.s not in (b"", b"NOTSET"):
                return None
        elif a.name not in ("ratio", "alpha", "beta", "bias"):   # float attributes no rule reads
            return None
    return out


def _pool(op: str, x: tuple, at: dict, opset: int) -> tuple | None:
    sp = len(x) - 2
    ks = at.get("kernel_shape")
    if sp < 1 or not isinstance(ks, list) or len(ks) != sp or min(ks) < 1:
        return None
    if at.get("ceil_mode", 0) != 0:
        return None
    if "dilations" in at and opset < (10 if op == "MaxPool" else 19):
        return None
    strides, dil, pads = at.get("strides", [1] * sp), at.get("dilations", [1] * sp), at.get("pads", [0] * (2 * sp))
    if any(not isinstance(v, list) for v in (strides, dil, pads)) or len(strides) != sp or len(dil) != sp \
            or len(pads) != 2 * sp or min(strides) < 1 or min(dil) < 1 or min(pads) < 0:
        return None
    out = list(x[:2])
    for i in range(sp):
        eff = (ks[i] - 1) * dil[i] + 1
        if pads[i] >= eff or pads[sp + i] >= eff:
            return None
        size = x[2 + i] + pads[i] + pads[sp + i]
        if size < eff:
            return None
        out.append((size - eff) // strides[i] + 1)
    return tuple(out)


def _gemm(ins: list, at: dict, opset: int) -> tuple | None:
    if len(ins) < 2 or len(ins) > 3 or ins[0] is None or ins[1] is None:
        return None
    a, b = ins[0][0], ins[1][0]
    if len(a) != 2 or len(b) != 2:
        return None
    ta, tb = at.get("transA", 0), at.get("transB", 0)
    if ta not in (0, 1) or tb not in (0, 1):
        return None
    m, k = (a[1], a[0]) if ta else (a[0], a[1])
    kb, n = (b[1], b[0]) if tb else (b[0], b[1])
    if k != kb:
        return None
    c = ins[2][0] if len(ins) == 3 and ins[2] is not None else None
    if c is None and opset < 11:   # C is optional from opset 11
        return None
    if c is not None and (len(c) > 2 or any(cd not in (1, od) for cd, od in zip(reversed(c), (n, m)))):
        return None
    return (m, n)


def reshape_shape(x: tuple, target, allowzero: int) -> tuple | None:
    """Reshape's output for input shape ``x`` and a constant 1-D int64 ``target``, or
    None when the node is invalid or outside the common case."""
    t = np.asarray(target)
    if t.dtype != np.int64 or t.ndim != 1:
        return None
    vals = [int(v) for v in t]
    if allowzero not in (0, 1) or min(vals, default=0) < -1 or vals.count(-1) > 1:
        return None
    if allowzero and 0 in vals and -1 in vals:
        return None
    out = []
    for i, v in enumerate(vals):
        if v == 0 and not allowzero:
            if i >= len(x):
                return None
            v = x[i]
        out.append(v)
    total = math.prod(x)
    if -1 in out:
        rest = math.prod(v for v in out if v != -1)
        if rest == 0 or total % rest:
            return None
        out[out.index(-1)] = total // rest
    elif math.prod(out) != total:
        return None
    return tuple(out)


def rule_shape(node: onnx.NodeProto, op: str, ins: list, opset: int) -> tuple | None:
    """The output shape of a one-output ``op`` node (:data:`OPS` but Reshape) whose
    inputs ``ins`` are (static shape, float dtype) or None for an empty slot, or None."""
    at = _attrs(node)
    if at is None or any(i is None for i in ins[:1]) or not ins:
        return None
    x = ins[0][0]
    r = len(x)
    if op in ("Softmax", "LRN", "Dropout"):
        if len(ins) != 1:
            return None
        if op == "Softmax":
            axis = at.get("axis", 1 if opset < 13 else -1)
            return x if isinstance(axis, int) and -r <= axis < r else None
        if op == "LRN":
            return x if isinstance(at.get("size"), int) and r >= 3 else None
        return x
    if op == "Transpose":
        perm = at.get("perm", list(range(r - 1, -1, -1)))
        if len(ins) != 1 or not isinstance(perm, list) or sorted(perm) != list(range(r)):
            return None
        return tuple(x[p] for p in perm)
    if op == "Flatten":
        axis = at.get("axis", 1)
        if len(ins) != 1 or not isinstance(axis, int) or not (-r if opset >= 11 else 0) <= axis <= r:
            return None
        if axis < 0:
            axis += r
        return (math.prod(x[:axis]), math.prod(x[axis:]))
    if op in ("GlobalAveragePool", "GlobalMaxPool"):
        return x[:2] + (1,) * (r - 2) if len(ins) == 1 and r >= 3 else None
    if op in ("MaxPool", "AveragePool"):
        return _pool(op, x, at, opset) if len(ins) == 1 else None
    if op == "Gemm":
        return _gemm(ins, at, opset)
    return None
