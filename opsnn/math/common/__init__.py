"""Shared pieces of the elementwise families (``math/elementwise``, ``math/pointwise``,
``math/select``, ``math/cast``, ``activation/gelu``): argument helpers and the
phase-1 tail (:mod:`.host`), shape and dtype inference (:mod:`.infershape`), the
pure tiling (:mod:`.tiling` + :mod:`.tiling_data`) and the tile program and numpy
body (:mod:`.kernel`). Each family keeps its own table of kernels (numpy compute in
its ``kernel.py``, Vector pass counts in its ``tiling_data.py``)."""
