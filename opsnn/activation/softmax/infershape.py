"""Softmax shape inference: ``out`` has self's shape and dtype; ``dim`` normalised."""
from __future__ import annotations


def normalize_dim(dim: int, shape: tuple[int, ...]) -> int | None:
    """``dim`` in [0, rank) for ``shape`` (a 0-D tensor counts as rank 1), or None if
    it is out of [-rank, rank)."""
    rank = max(len(shape), 1)
    return int(dim) % rank if -rank <= int(dim) < rank else None


def infer_shape(self_shape: tuple[int, ...], self_dtype, dim: int):
    """[(out shape, out dtype)] = [(self shape, self dtype)]."""
    return [(tuple(self_shape), self_dtype)]
