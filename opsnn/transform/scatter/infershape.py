"""Scatter / ScatterNd shape inference: out has the shape and dtype of self / data."""
from __future__ import annotations


def infer_scatter(self, dim, index, src, reduce=0):
    return [(tuple(self[0]), self[1])]


def infer_scatter_nd(data, indices, updates):
    return [(tuple(data[0]), data[1])]
