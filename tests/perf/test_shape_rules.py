"""frontend/onnx_shape_rules.py (through onnx_infer.fast_output_shape) gives exactly what
onnx's shape inference gives, on random (sometimes invalid) Softmax, LRN, Dropout,
Transpose, Flatten, global and windowed pooling, Gemm and Reshape nodes; and
frontend/onnx_signatures.py answers as ``onnx.defs.get_schema`` for every op and opset."""
from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import helper

from frontend import onnx_infer, onnx_signatures
from tests.perf.test_graphprep_infer import _reference as _graphprep_reference


def _reference(node, ins, consts, opset):
    """onnx's answer: {output: (static shape or None, dtype or None)}, or None on failure."""
    return _graphprep_reference(node, ins, opset, consts)


def _case(rng: random.Random):
    dt = rng.choice([np.float32] * 4 + [np.float16, np.int64])
    opset = rng.choice([7, 9, 10, 11, 12, 13, 14, 17, 19])
    rank = rng.randint(1, 5)
    x = tuple(rng.randint(1, 6) for _ in range(rank))
    op = rng.choice(["Softmax", "LRN", "Dropout", "Transpose", "Flatten", "GlobalAveragePool", "GlobalMaxPool",
                     "MaxPool", "AveragePool", "Gemm", "Reshape"])
    ins, consts, attrs = {"x": (x, dt)}, {}, {}
    if op == "Softmax" and rng.random() < 0.7:
        attrs["axis"] = rng.randint(-rank - 1, rank)
    elif op == "LRN":
        if rng.random() < 0.9:
            attrs["size"] = rng.choice([1, 3, 5])
        attrs["alpha"] = 1e-4
    elif op == "Dropout":
        attrs["ratio"] = 0.5
    elif op == "Transpose" and rng.random() < 0.8:
        perm = list(range(rank))
        rng.shuffle(perm)
        if rng.random() < 0.1:
            perm[0] = rank
        attrs["perm"] = perm
    elif op == "Flatten" and rng.random() < 0.8:
        attrs["axis"] = rng.randint(-rank - 1, rank + 1)
    elif op in ("MaxPool", "AveragePool"):
        sp = max(rank - 2, 1)
        x = (rng.randint(1, 2), rng.randint(1, 3)) + tuple(rng.randint(1, 12) for _ in range(sp))
        ins["x"] = (x, dt)
        if rng.random() < 0.95:
            attrs["kernel_shape"] = [rng.randint(1, 4) for _ in range(sp)]
        if rng.random() < 0.7:
            attrs["strides"] = [rng.randint(1, 3) for _ in range(sp)]
        if rng.random() < 0.7:
            attrs["pads"] = [rng.randint(0, 2) for _ in range(2 * sp)]
        if rng.random() < 0.3:
            attrs["dilations"] = [rng.randint(1, 2) for _ in range(sp)]
        if rng.random() < 0.2:
            attrs["ceil_mode"] = rng.randint(0, 1)
        if rng.random() < 0.1:
            attrs["auto_pad"] = rng.choice(["SAME_UPPER", "VALID", "NOTSET"])
            attrs.pop("pads", None) if attrs["auto_pad"] != "NOTSET" else None
    elif op == "Gemm":
        m, k, n = rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 5)
        ta, tb = rng.randint(0, 1), rng.randint(0, 1)
        a = (k, m) if ta else (m, k)
        b = (n, rng.choice([k, k, k + 1])) if tb else (rng.choice([k, k, k + 1]), n)
        if rng.random() < 0.1:
            a = a + (1,)
        ins = {"a": (a, dt), "b": (b, dt)}
        if rng.random() < 0.7:
            ins["c"] = (rng.choice([(m, n), (n,), (1, n), (m, 1), (1,), (), (n + 1,), (m + 1, n)]), dt)
        attrs.update(transA=ta, transB=tb, alpha=1.0)
    elif op == "Reshape":
        size = int(np.prod(x))
        target = list(x)
        rng.shuffle(target)
        choice = rng.random()
        if choice < 0.3 and target:
            target[rng.randrange(len(target))] = -1
        elif choice < 0.5 and target:
            target[0] = 0
        elif choice < 0.6:
            target = [size]
        elif choice < 0.7:
            target = [size + 1]
        elif choice < 0.75:
            target = [-1, -1]
        if opset >= 14 and rng.random() < 0.3:
            attrs["allowzero"] = rng.randint(0, 1)
        consts["shape"] = np.array(target, np.int64)
    names = list(ins) + list(consts)
    outs = ["y", "mask"] if op == "Dropout" and rng.random() < 0.3 else ["y"]
    return helper.make_node(op, names, outs, **attrs), ins, consts, opset


def compare_random(case, seed: int, n: int) -> dict:
    """Run ``n`` random nodes from ``case(rng)`` through the direct rules and assert each
    answer the rules give equals onnx's (:func:`_reference`); returns op -> nodes the
    rules took ("Dropout+mask" for a Dropout that asks for its mask)."""
    rng = random.Random(seed)
    taken = {}
    for _ in range(n):
        node, ins, consts, opset = case(rng)
        if onnx_signatures.signature(node.op_type, opset) is None:
            continue
        shapes = {k: s for k, (s, _) in ins.items()}
        dtypes = {k: np.dtype(d) for k, (_, d) in ins.items()}
        if len(node.output) == 2:
            both = onnx_infer.dropout_with_mask(node, shapes, dtypes, consts, opset)
            if both is None:
                continue
            taken["Dropout+mask"] = taken.get("Dropout+mask", 0) + 1
            assert _reference(node, ins, consts, opset) == {"y": both[0], "mask": both[1]}, (node, ins, opset)
            continue
        fast = onnx_infer.fast_output_shape(node, shapes, dtypes, consts, opset)
        if fast is None:
            continue
        taken[node.op_type] = taken.get(node.op_type, 0) + 1
        assert _reference(node, ins, consts, opset) == {"y": (fast[0], fast[1])}, (node, ins, consts, opset)
    return taken


def test_random_nodes_match_onnx():
    taken = compare_random(_case, 23, 3000)
    assert set(taken) == {"Softmax", "LRN", "Dropout", "Transpose", "Flatten", "GlobalAveragePool",
                          "GlobalMaxPool", "MaxPool", "AveragePool", "Gemm", "Reshape", "Dropout+mask"}, taken
    assert sum(taken.values()) > 800, taken


def _all_ops():
    return sorted({s.name for s in onnx.defs.get_all_schemas_with_history() if s.domain == ""})


def test_signatures_match_onnx_schemas():
    """Every default-domain op at every opset 1..current (and one past it): present when
    onnx has a schema, with the same counts and formal inputs."""
    top = onnx.defs.onnx_opset_version()
    for op in _all_ops():
        for opset in range(1, top + 2):
            try:
                s = onnx.defs.get_schema(op, opset, "")
            except Exception:  # noqa: BLE001 - no schema at this opset
                s = None
            sig = onnx_signatures.signature(op, opset)
            if s is None:
                assert sig is None, (op, opset)
                continue
            assert sig == (s.since_version, s.min_input, s.max_input, s.min_output, s.max_output,
                           tuple((f.name, int(f.option)) for f in s.inputs),
                           tuple(sorted((n, int(a.type), bool(a.required)) for n, a in s.attributes.items()))), \
                (op, opset)
        latest = onnx.defs.get_schema(op)
        assert onnx_signatures.latest_signature(op).since_version == latest.since_version
    assert onnx_signatures.signature("FlashAttentionScore", 17) is None
    assert onnx_signatures.latest_signature("FlashAttentionScore") is None


def test_generated_table_is_this_onnx_release_or_unused(monkeypatch):
    """The generated table serves only the onnx release it was made from; with another
    release installed the registry is read (the same answers as above)."""
    from frontend import onnx_signatures_table as gen
    monkeypatch.setattr(onnx_signatures, "_TABLE", None)
    monkeypatch.setattr(gen, "ONNX_VERSION", "0.0.0-not-installed")
    assert onnx_signatures.table() == onnx_signatures._from_registry()
    monkeypatch.setattr(onnx_signatures, "_TABLE", None)


@pytest.mark.parametrize("domain", ["ai.onnx.ml", "com.example"])
def test_other_domains_go_to_onnx(domain):
    want = None
    try:
        s = onnx.defs.get_schema("LinearClassifier", 3, domain)
        want = s.since_version
    except Exception:  # noqa: BLE001
        pass
    got = onnx_signatures.signature("LinearClassifier", 3, domain)
    assert (got.since_version if got else None) == want
