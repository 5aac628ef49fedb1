"""Split shape inference: pure, no status codes."""
from __future__ import annotations


def section_sizes(extent: int, sections: int) -> list[int]:
    """aclnnSplitTensor: pieces of ``sections`` elements along the axis, the last one
    shorter (torch.split with an int)."""
    if extent == 0:
        return [0]
    return [min(sections, extent - s) for s in range(0, extent, sections)]


def split_shapes(shape, sizes, axis: int) -> list[tuple[int, ...]]:
    """One shape per piece: ``shape`` with ``axis`` set to each size."""
    shape = tuple(shape)
    return [shape[:axis] + (int(s),) + shape[axis + 1:] for s in sizes]


def infer_shape(self_shape, self_dtype, sizes, dim: int):
    """[(shape, dtype)] of every piece."""
    axis = int(dim) % max(len(self_shape), 1)
    return [(s, self_dtype) for s in split_shapes(self_shape, sizes, axis)]
