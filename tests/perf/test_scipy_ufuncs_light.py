"""scipy's compiled erf/erfc reach :func:`special_exact` without the 0.3 s
``scipy/special/__init__.py`` (:func:`opsnn.math.pointwise.kernel.scipy_ufuncs`),
and a later ``import scipy.special`` still works and holds the same ufunc objects.
Run in a fresh interpreter: the test process may already hold scipy.special."""
from __future__ import annotations

import subprocess
import sys

_SCRIPT = r"""
import sys
import numpy as np
from opsnn.math.common.kernel import special
from opsnn.math.pointwise.kernel import _ERF, SMALL_SPECIAL, erf_compute, scipy_ufuncs
assert "scipy.special" not in sys.modules
x = np.random.default_rng(1).standard_normal(SMALL_SPECIAL + 5).astype(np.float32) * 3
y = erf_compute(x)
assert "scipy.special" not in sys.modules, "the package __init__ ran"
assert "scipy.special._ufuncs" in sys.modules
assert np.array_equal(y, special(_ERF, x))
u = scipy_ufuncs()
import scipy.special
assert scipy.special._ufuncs is u and scipy.special.erf is u.erf and scipy.special.erfc is u.erfc
assert scipy_ufuncs() is scipy.special
x64 = x.astype(np.float64)
assert np.array_equal(scipy.special.erf(x64), u.erf(x64))
assert np.array_equal(erf_compute(x), y)
print("ok")
"""


def test_erf_without_the_scipy_special_package_import():
    r = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
