"""Definitions of the logical and bitwise ops, generated from the rows of
:mod:`.op_api`: ``(self, out)`` / ``(self, other, out)`` in CANN order."""
from __future__ import annotations

from ..common.table import make_op_defs
from .op_api import ENTRY_POINTS, ROWS, UNARY_ROWS

OP_DEFS = make_op_defs(UNARY_ROWS, ROWS, entries=ENTRY_POINTS)
