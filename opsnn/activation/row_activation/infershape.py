"""Row-activation shape inference: ``out`` has ``self``'s shape and dtype; ``dim``
normalised into [0, rank) (a 0-D tensor counts as rank 1)."""
from __future__ import annotations


def normalize_dim(dim: int, shape) -> int | None:
    """``dim`` in [0, rank), or None if out of [-rank, rank)."""
    rank = max(len(shape), 1)
    return int(dim) % rank if -rank <= int(dim) < rank else None


def infer_row(self, dim):
    """[(shape, dtype)] of LogSoftmax / Hardmax."""
    return [(tuple(self[0]), self[1])]
