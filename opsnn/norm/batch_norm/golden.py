"""float64 reference for BatchNorm inference (tests only)."""
from __future__ import annotations

import numpy as np


def batch_norm_inference_golden(x, mean, var, weight=None, bias=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * weight + bias, per channel (dim 1), in float64."""
    x = np.asarray(x, dtype=np.float64)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    c = x.shape[1]
    w = np.ones(c) if weight is None else np.asarray(weight, dtype=np.float64)
    b = np.zeros(c) if bias is None else np.asarray(bias, dtype=np.float64)
    m = np.asarray(mean, dtype=np.float64).reshape(shape)
    v = np.asarray(var, dtype=np.float64).reshape(shape)
    return (x - m) / np.sqrt(v + eps) * w.reshape(shape) + b.reshape(shape)


def batch_norm_training_golden(x, weight=None, bias=None, running_mean=None, running_var=None, momentum=0.1,
                               eps=1e-5):
    """Training-mode BatchNorm in float64: (output, saveMean, saveVar, new running mean,
    new running var) with batch statistics over every dim but 1 (biased variance for
    the output and saveVar), running = (1 - momentum) * running + momentum * batch and
    the unbiased batch variance for the running var (PyTorch's convention). Running
    outputs are None where the input is None."""
    x = np.asarray(x, dtype=np.float64)
    axes = tuple(i for i in range(x.ndim) if i != 1)
    mean = x.mean(axis=axes)
    var = x.var(axis=axes)
    n = x.size // x.shape[1]
    y = batch_norm_inference_golden(x, mean, var, weight, bias, eps)
    rm = None if running_mean is None else (1 - momentum) * np.asarray(running_mean, np.float64) + momentum * mean
    unb = var * n / (n - 1) if n > 1 else var
    rv = None if running_var is None else (1 - momentum) * np.asarray(running_var, np.float64) + momentum * unb
    return y, mean, var, rm, rv
