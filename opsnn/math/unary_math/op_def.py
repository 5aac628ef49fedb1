"""Definitions of the unary math ops, generated from :data:`.op_api.ROWS`:
``(self, out)`` in CANN order, CANN's dtypes, shape inference."""
from __future__ import annotations

from ..common.table import make_op_defs
from .op_api import ENTRY_POINTS, ROWS

OP_DEFS = make_op_defs(ROWS, entries=ENTRY_POINTS)
