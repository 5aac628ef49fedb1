"""Corrected op classes for ``onnx.reference.ReferenceEvaluator`` (onnx 1.23.2).

DESIGN.md section 9 lists where the evaluator is wrong; these classes implement
the operator text instead and are passed through ``new_ops``:

* :class:`LRN` -- the shipped LRN loops ``for c in range(x.shape[0])``, i.e. over
  the batch axis, so channels >= N keep a zero square sum and the window is wrong
  whenever N != C (onnx#7805). Here: for every channel c, square_sum sums x^2 over
  channels max(0, c - floor((size-1)/2)) .. min(C-1, c + ceil((size-1)/2)).
* :class:`Softmax` (and :class:`LogSoftmax`, :class:`Hardmax`) -- below opset 13
  the shipped classes apply the opset-13 meaning (one axis, default -1). The
  operator text for opsets 1-12 coerces the input to 2-D at ``axis`` (default 1):
  [prod(shape[:axis]), prod(shape[axis:])], normalises each row, and reshapes
  back; so a (1, 1000, 1, 1) Softmax at opset 9 is a softmax over all 1000
  values, not all ones. At opset >= 13 these classes give the opset-13 meaning,
  so they are safe to pass for any model.

The evaluator fills missing attributes from the newest schema (axis=-1), so the
legacy classes read the node's own ``axis`` attribute to apply the old default.

Use :func:`reference_evaluator` (or ``ReferenceEvaluator(model, new_ops=CORRECTED_OPS)``).
"""
from __future__ import annotations

import math

import numpy as np
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun


class LRN(OpRun):
    """ONNX LRN (opsets 1 and 13) across channels (axis 1), computed in float64."""

    op_domain = ""

    def _run(self, x, alpha=None, beta=None, bias=None, size=None):
        alpha = 1e-4 if alpha is None else float(alpha)
        beta = 0.75 if beta is None else float(beta)
        bias = 1.0 if bias is None else float(bias)
        size = int(size)
        xx = np.asarray(x, dtype=np.float64)
        channels = xx.shape[1]
        lo, hi = math.floor((size - 1) / 2), math.ceil((size - 1) / 2)
        square_sum = np.empty_like(xx)
        for c in range(channels):
            a, b = max(0, c - lo), min(channels - 1, c + hi)
            square_sum[:, c] = np.sum(xx[:, a:b + 1] ** 2, axis=1)
        y = xx / (bias + (alpha / size) * square_sum) ** beta
        return (y.astype(x.dtype),)


def _opset(op: OpRun) -> int:
    return int(op.run_params.get("opsets", {}).get("", 13))


def _axis_attr(op: OpRun):
    given = [a.i for a in op.onnx_node.attribute if a.name == "axis"]
    return given[0] if given else None


def _legacy_rows(x: np.ndarray, axis: int) -> np.ndarray:
    axis = axis % max(x.ndim, 1)
    return x.reshape(int(np.prod(x.shape[:axis], dtype=np.int64)), -1)


def _softmax_rows(x2: np.ndarray) -> np.ndarray:
    e = np.exp(x2 - x2.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class _AxisOp(OpRun):
    """Shared opset dispatch: opset < 13 -> 2-D coercion at axis (default 1);
    opset >= 13 -> along one axis (default -1)."""

    op_domain = ""

    def _run(self, x, axis=None):
        xx = np.asarray(x, dtype=np.float64)
        given = _axis_attr(self)
        if _opset(self) < 13:
            ax = 1 if given is None else given
            y = self._rows(_legacy_rows(xx, ax)).reshape(xx.shape)
        else:
            ax = -1 if given is None else given
            if xx.ndim == 0:
                y = self._rows(xx.reshape(1, 1)).reshape(())
            else:
                moved = np.moveaxis(xx, ax, -1)
                y = np.moveaxis(self._rows(moved.reshape(-1, moved.shape[-1])).reshape(moved.shape), -1, ax)
        return (np.asarray(y).astype(x.dtype),)

    @staticmethod
    def _rows(x2: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError


class Softmax(_AxisOp):
    @staticmethod
    def _rows(x2):
        return _softmax_rows(x2)


class LogSoftmax(_AxisOp):
    @staticmethod
    def _rows(x2):
        m = x2.max(axis=-1, keepdims=True)
        return (x2 - m) - np.log(np.exp(x2 - m).sum(axis=-1, keepdims=True))


class Hardmax(_AxisOp):
    @staticmethod
    def _rows(x2):
        y = np.zeros_like(x2)
        y[np.arange(x2.shape[0]), x2.argmax(axis=-1)] = 1
        return y


#: pass as ``new_ops``; every class is correct at every opset
CORRECTED_OPS = [LRN, Softmax, LogSoftmax, Hardmax]


def reference_evaluator(model) -> ReferenceEvaluator:
    """``ReferenceEvaluator(model)`` with the corrections above."""
    return ReferenceEvaluator(model, new_ops=CORRECTED_OPS)
