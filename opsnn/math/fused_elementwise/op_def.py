"""FusedElementwise definition: none for the generated Pythonic layer. It is an
npu-sim graph-mode kernel whose ``steps`` argument (a chain program) has no CANN
parameter kind, so ``OP_DEFS`` is empty and the graph-mode lowering calls the aclnn
entry points directly."""
from __future__ import annotations

OP_DEFS = ()
