"""Einsum reference (float64, explicit loop over the label space), tests only."""
from __future__ import annotations

import itertools

import numpy as np


def einsum_golden(terms, out, sizes, xs):
    labels = sorted(sizes)
    res = np.zeros(tuple(sizes[c] for c in out))
    for vals in itertools.product(*[range(sizes[c]) for c in labels]):
        env = dict(zip(labels, vals))
        p = 1.0
        for t, x in zip(terms, xs):
            p *= float(x[tuple(min(env[c], x.shape[i] - 1) for i, c in enumerate(t))])
        res[tuple(env[c] for c in out)] += p
    return res
