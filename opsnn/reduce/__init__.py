"""Reduction operators: ReduceSum (``reduce_sum/``) and Mean (``mean/``), one host,
tiling and kernel in ``common/``."""
