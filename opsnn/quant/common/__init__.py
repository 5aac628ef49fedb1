"""Pieces the quant family shares: the per-element affine kernel (tiling, tile program,
numerics) of :mod:`.affine`."""
