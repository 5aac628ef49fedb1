"""frontend/onnx_shape_rules.typed_shape (through onnx_infer.fast_output_shape) gives
exactly what onnx's shape inference gives, on random (sometimes invalid) Identity, Cast,
Unsqueeze, Gather, Expand, ReduceSum, Clip and LayerNormalization nodes with inputs of
float, int and bool dtypes."""
from __future__ import annotations

import random

import numpy as np
from onnx import helper

from tests.perf.test_shape_rules import compare_random

_DTYPES = [np.float32, np.float32, np.float16, np.float64, np.int64, np.int64, np.int32, np.int8, np.uint8,
           np.uint32, np.uint64, np.bool_]
_OPS = ["Identity", "Cast", "Unsqueeze", "Gather", "Expand", "ReduceSum", "Clip", "LayerNormalization"]


def _case(rng: random.Random):
    dt = rng.choice(_DTYPES)
    opset = rng.choice([6, 7, 9, 11, 12, 13, 14, 17, 18, 19, 21])
    rank = rng.randint(0, 4)
    x = tuple(rng.randint(1, 5) for _ in range(rank))
    op = rng.choice(_OPS)
    ins, consts, attrs = {"x": (x, dt)}, {}, {}
    if op == "Cast":
        attrs["to"] = rng.choice([1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 16, 8])
    elif op == "Unsqueeze":
        k = rng.randint(0, 3)
        axes = [rng.randint(-rank - k - 1, rank + k) for _ in range(k)]
        consts["axes"] = np.array(axes, rng.choice([np.int64] * 5 + [np.int32]))
        if rng.random() < 0.1:
            consts["axes"] = consts["axes"].reshape(-1, 1)
        if opset < 13 and axes and rng.random() < 0.5:
            attrs["axes"] = axes
            del consts["axes"]
    elif op == "Gather":
        idx = tuple(rng.randint(1, 4) for _ in range(rng.randint(0, 3)))
        ins["i"] = (idx, rng.choice([np.int64, np.int64, np.int32, np.float32]))
        if rng.random() < 0.7:
            attrs["axis"] = rng.randint(-rank - 1, rank)
    elif op == "Expand":
        k = rng.randint(0, rank + 2)
        want = [rng.choice([1, 1, 2, 3, 4, 0]) for _ in range(k)]
        consts["shape"] = np.array(want, np.int64)
        if rng.random() < 0.3:   # a runtime shape: not known
            ins["shape"] = ((k,), np.int64)
            del consts["shape"]
    elif op == "ReduceSum":
        if rng.random() < 0.8:
            k = rng.randint(0, 3)
            consts["axes"] = np.array([rng.randint(-rank - 1, rank) for _ in range(k)], np.int64)
        if rng.random() < 0.5:
            attrs["keepdims"] = rng.randint(0, 1)
        if rng.random() < 0.3:
            attrs["noop_with_empty_axes"] = rng.randint(0, 1)
    elif op == "Clip":
        for name in ("lo", "hi")[:rng.randint(0, 2)]:
            consts[name] = np.array(1, rng.choice([dt, dt, dt, np.float64]))
        if rng.random() < 0.1 and consts:
            consts[next(iter(consts))] = np.ones(2, dt)
        if opset < 11 and rng.random() < 0.5:
            attrs["min"] = 0.0
    elif op == "LayerNormalization":
        opset = rng.choice([17, 17, 18, 21])
        k = rng.randint(1, max(rank, 1))
        consts["scale"] = np.ones(x[-k:], rng.choice([dt, dt, np.float64]))
        if rng.random() < 0.5:
            consts["b"] = np.zeros(x[-k:], dt)
        if rng.random() < 0.7:
            attrs["axis"] = rng.randint(-rank - 1, rank)
        attrs["epsilon"] = 1e-5
    names = list(ins) + list(consts)
    if op == "Clip" and len(names) == 2 and "hi" in names and rng.random() < 0.5:
        names = ["x", "", "hi"]
    return helper.make_node(op, names, ["y"], **attrs), ins, consts, opset


def test_random_typed_nodes_match_onnx():
    taken = compare_random(_case, 17, 4000)
    assert set(taken) == set(_OPS), taken
    assert sum(taken.values()) > 1000, taken
