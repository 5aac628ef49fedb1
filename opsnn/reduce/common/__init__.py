"""What ReduceSum and Mean share: one host (``host.py``: phase-1 checks and the
launch), shape inference and the axis pattern (``infershape.py``), tiling and its
struct (``tiling.py``, ``tiling_data.py``), the tile program and numpy body
(``kernel.py``), and the golden helpers (``golden.py``, tests only)."""
