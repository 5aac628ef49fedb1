"""Permute shape inference and axis merging: pure, no status codes."""
from __future__ import annotations

import numpy as np


def normalized_perm(dims, rank: int) -> list[int]:
    """``dims`` with negative entries counted from the end (a 0-D self counts as rank 1)."""
    r = max(rank, 1)
    return [int(d) % r for d in dims]


def permuted_shape(shape: tuple[int, ...], perm: list[int]) -> tuple[int, ...]:
    """[shape[perm[0]], ..., shape[perm[-1]]]."""
    return tuple(shape[a] for a in perm)


def merge_perm(shape: tuple[int, ...], perm: list[int]) -> tuple[list[int], list[int]]:
    """Drop size-1 axes and merge input axes that stay adjacent and in order.
    Returns (merged permutation, merged input shape)."""
    keep = [a for a in perm if shape[a] != 1]
    if not keep:
        return [0], [1]
    groups: list[list[int]] = []
    for a in keep:
        if groups and a > groups[-1][-1] and all(shape[b] == 1 for b in range(groups[-1][-1] + 1, a)):
            groups[-1].append(a)
        else:
            groups.append([a])
    # rank the groups by their first input axis
    order = sorted(range(len(groups)), key=lambda g: groups[g][0])
    merged_shape = [int(np.prod([shape[a] for a in groups[g]])) for g in order]
    rank_of = {g: i for i, g in enumerate(order)}
    return [rank_of[g] for g in range(len(groups))], merged_shape


def infer_shape(self_shape, self_dtype, dims):
    """[(out shape, self dtype)]: self's axes reordered by ``dims``."""
    return [(permuted_shape(tuple(self_shape), normalized_perm(dims, len(self_shape))), self_dtype)]
