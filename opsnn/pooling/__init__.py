"""Pooling family (AIV vector kernels): MaxPool2dWithIndices, MaxPool (ONNX-style),
AvgPool2d and AdaptiveAvgPool2d.

Host half in :mod:`.op_api` (checks, shape inference, tiling), kernel half in
:mod:`.kernel` (geometry, tiling struct, numpy bodies), float64 references in
:mod:`.golden`. Pad conventions are documented in :mod:`.op_api`.
"""
