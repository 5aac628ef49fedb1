"""Definitions of Maximum, Minimum, Remainder and Fmod, generated from
:data:`.op_api.ROWS`: ``(self, other, out)`` in CANN order."""
from __future__ import annotations

from ..common.table import make_op_defs
from .op_api import ENTRY_POINTS, ROWS

OP_DEFS = make_op_defs(binary=ROWS, entries=ENTRY_POINTS)
