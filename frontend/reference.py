"""The onnx reference evaluator, corrected where it is known to be wrong (onnx 1.23).

DESIGN.md section 9: LRN windows over the batch axis instead of channels
(onnx#7805); Softmax / LogSoftmax / Hardmax below opset 13 get the opset-13 meaning
instead of flattening to 2-D at ``axis`` (default 1). The replacements below
implement the operator text and are passed through ``new_ops``.
"""
from __future__ import annotations

import math

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun


class LRN(OpRun):
    """ONNX LRN: square sum over the channel window [c - floor((size-1)/2), c + ceil((size-1)/2)]."""

    def _run(self, x, alpha=None, beta=None, bias=None, size=None):
        alpha = self.alpha if alpha is None else alpha
        beta = self.beta if beta is None else beta
        bias = self.bias if bias is None else bias
        size = self.size if size is None else size
        sq = np.zeros(x.shape, dtype=np.float64)
        c1, c2 = math.floor((size - 1) / 2), math.ceil((size - 1) / 2) + 1
        xx = x.astype(np.float64) ** 2
        for c in range(x.shape[1]):
            sq[:, c] = xx[:, max(0, c - c1):min(x.shape[1], c + c2)].sum(axis=1)
        return ((x / (bias + (alpha / size) * sq) ** beta).astype(x.dtype),)


def _flat_softmax(kind: str):
    class _Op(OpRun):
        def _run(self, x, axis=None):
            # the evaluator fills missing attributes from the newest schema (axis=-1),
            # so read the node's own attribute; the opset < 13 default is 1
            given = [a.i for a in self.onnx_node.attribute if a.name == "axis"]
            axis = given[0] if given else 1
            axis = axis % max(x.ndim, 1)
            rows = int(np.prod(x.shape[:axis], dtype=np.int64))
            x2 = x.reshape(rows, -1).astype(np.float64)
            m = x2.max(axis=1, keepdims=True)
            if kind == "Hardmax":
                y = np.zeros_like(x2)
                y[np.arange(rows), x2.argmax(axis=1)] = 1
            else:
                e = np.exp(x2 - m)
                s = e.sum(axis=1, keepdims=True)
                y = e / s if kind == "Softmax" else (x2 - m) - np.log(s)
            return (y.reshape(x.shape).astype(x.dtype),)
    _Op.__name__ = kind
    return _Op


def reference_evaluator(model: onnx.ModelProto) -> ReferenceEvaluator:
    """A ReferenceEvaluator for ``model`` with the corrections above applied."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    ops = [LRN]
    if opset < 13:
        ops += [_flat_softmax(k) for k in ("Softmax", "LogSoftmax", "Hardmax")]
    return ReferenceEvaluator(model, new_ops=ops)
