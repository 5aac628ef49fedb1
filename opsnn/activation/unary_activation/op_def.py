"""Definitions of the unary activations, generated from :data:`.op_api.ROWS`:
parameters in CANN order (``self``, the aclScalar attributes, ``out``), CANN's dtypes,
shape inference (:func:`.infershape.infer_unary`). Attribute defaults are the torch
defaults the aclnn ops implement (LeakyRelu 0.01, Elu 1/1/1, Celu 1, Softplus 1 and 20,
Hardshrink/Softshrink 0.5); aclnnThreshold's ``threshold`` and ``value`` have none."""
from __future__ import annotations

from ...math.common.table import make_op_defs
from .op_api import ENTRY_POINTS, ROWS

OP_DEFS = make_op_defs(ROWS, entries=ENTRY_POINTS)
