"""Helpers shared by the pooling ops: window geometry (``geometry.py``), attribute
checks (``checks.py``), the tiling strategies and struct (``tiling.py``,
``tiling_data.py``), the tile program and window slicing (``kernel.py``) and the
golden output-length rule (``golden.py``, tests only)."""
