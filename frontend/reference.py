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
* :class:`BatchNormalization` -- for opsets 9-13 the shipped class runs in training
  mode (batch statistics) whenever ``momentum`` is set, and the evaluator fills it
  from the schema default, so inference-mode BatchNorm is computed wrongly. Not in
  DESIGN.md section 9; found by comparing ResNet-50 with random weights to float64.

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


class BatchNormalization(OpRun):
    """BatchNormalization that runs in inference mode when the operator text says so.

    Found here (not listed in DESIGN.md section 9): for opsets 9-13 the shipped class
    switches to training mode whenever ``momentum`` is not None, and the evaluator
    fills ``momentum`` from the schema default (0.9), so every opset-9 BatchNorm
    normalises with the batch's own statistics. The operator text: opsets 9-13 run
    in test mode when only ``Y`` is produced; opset >= 14 follows ``training_mode``.
    Training mode is delegated to the shipped implementation.
    """

    op_domain = ""

    def _run(self, x, scale, bias, mean, var, epsilon=None, momentum=None, training_mode=None, is_test=None,
             spatial=None):
        node = self.onnx_node
        eps = next((a.f for a in node.attribute if a.name == "epsilon"), 1e-5)
        given_training = next((a.i for a in node.attribute if a.name == "training_mode"), None)
        opset = _opset(self)
        outputs = [o for o in node.output if o]
        if opset >= 14:
            training = bool(given_training)
        elif opset >= 7:
            training = len(outputs) > 1
        else:
            training = not next((a.i for a in node.attribute if a.name == "is_test"), 0)
        if training:
            from onnx.reference.ops.op_batch_normalization import _batchnorm_training_mode
            res = _batchnorm_training_mode(x, scale, bias, mean, var, momentum=0.9 if momentum is None else momentum,
                                           epsilon=eps)
            # opset 14+: (Y, running_mean, running_var); opsets 7-13: Y, mean, var, saved_mean, saved_var
            y, saved_mean, saved_var, run_mean, run_var = res
            return (y, run_mean, run_var, saved_mean, saved_var)[:len(outputs)]
        shape = (-1,) + (1,) * (x.ndim - 2)
        xx = np.asarray(x, dtype=np.float64)
        y = (xx - mean.reshape(shape)) / np.sqrt(var.reshape(shape).astype(np.float64) + eps) * scale.reshape(shape) \
            + bias.reshape(shape)
        return (y.astype(x.dtype),)


#: pass as ``new_ops``; every class is correct at every opset
CORRECTED_OPS = [LRN, Softmax, LogSoftmax, Hardmax, BatchNormalization]


def reference_evaluator(model) -> ReferenceEvaluator:
    """``ReferenceEvaluator(model)`` with the corrections above."""
    return ReferenceEvaluator(model, new_ops=CORRECTED_OPS)
