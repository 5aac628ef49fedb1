"""DepthToSpace / SpaceToDepth shape inference and index maps: pure, no status codes.
NCHW; ``b`` the block size."""
from __future__ import annotations


def depth_to_space_shape(shape, b: int) -> tuple[int, ...]:
    n, c, h, w = shape
    return (n, c // (b * b), h * b, w * b)


def space_to_depth_shape(shape, b: int) -> tuple[int, ...]:
    n, c, h, w = shape
    return (n, c * b * b, h // b, w // b)


def infer_d2s(self_shape, self_dtype, blockSize, mode="DCR"):  # noqa: N803
    return [(depth_to_space_shape(self_shape, int(blockSize)), self_dtype)]


def infer_s2d(self_shape, self_dtype, blockSize, mode="DCR"):  # noqa: N803
    return [(space_to_depth_shape(self_shape, int(blockSize)), self_dtype)]
