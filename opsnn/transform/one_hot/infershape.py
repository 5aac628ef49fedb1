"""OneHot shape inference: pure, no status codes."""
from __future__ import annotations


def one_hot_shape(shape, num_classes: int, axis: int) -> tuple[int, ...]:
    """``shape`` with ``num_classes`` inserted at ``axis`` (-1: appended)."""
    shape = tuple(shape)
    a = len(shape) if axis == -1 else axis
    return shape[:a] + (int(num_classes),) + shape[a:]


def infer_shape(self, numClasses, onValue, offValue, axis=-1):  # noqa: N803
    return [(one_hot_shape(self[0], numClasses, int(axis)), onValue[1])]
