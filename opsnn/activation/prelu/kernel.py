"""PRelu kernel half: out = self >= 0 ? self : weight * self on the compute dtype
(``weight`` already laid out to broadcast against ``self``); tile program and body
builder from :mod:`opsnn.math.common.kernel`."""
from __future__ import annotations

import numpy as np

from ...math.common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

#: kernel -> numpy compute
PRELU_COMPUTE = {"Prelu": lambda x, w: np.where(x >= 0, x, w * x)}
