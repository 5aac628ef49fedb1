"""The BLAS thread pool behind numpy, set once per process for the kernel bodies.

Why: the bodies' matmuls are small and one per kernel; with OpenBLAS's default of one
thread per core, a 1x768x768 fp32 matmul took 8 ms instead of 80 us when another core
was busy (issue 17, measured on a 2-core machine). Results do not depend on the thread
count: OpenBLAS splits a GEMM over M and N, never over K.

How: threadpoolctl finds and sets every BLAS loaded in the process, but importing it
and building its controllers cost 25-95 ms per process (cProfile of the light models'
runs, issue 17), more than a small model's bodies. When the only BLAS mapped into the
process is OpenBLAS (numpy's wheels ship it as ``libscipy_openblas64_``), its own
``openblas_set_num_threads`` entry point (under the wheel's symbol prefix/suffix) is
called directly through ctypes instead, which costs well under 1 ms; any other BLAS
(MKL, BLIS, FlexiBLAS, a generic ``libblas``), no ``/proc/self/maps`` (not Linux) or
a missing entry point falls back to threadpoolctl, so the effect is the same.
"""
from __future__ import annotations

import os
import sys

#: environment variable: BLAS threads for kernel bodies (default 1; "0" leaves BLAS alone)
BLAS_THREADS_ENV = "NPU_SIM_BLAS_THREADS"
_blas_limited = False

#: library basenames (lower case) of BLAS builds the direct path does not set
_OTHER_BLAS = ("libmkl", "mkl_rt", "libblis", "libflexiblas", "libblas.", "libcblas", "libaccelerate")


def blas_threads_wanted() -> int:
    """``$NPU_SIM_BLAS_THREADS`` as a thread count (default 1; 0 = leave BLAS alone).
    An invalid value prints one warning line to stderr and counts as 1; a count above
    ``os.cpu_count()`` prints one and counts as that."""
    raw = os.environ.get(BLAS_THREADS_ENV, "").strip()
    try:
        n = int(raw, 10) if raw else 1
    except ValueError:
        n = -1
    if n < 0:   # one line naming the variable (acl_runtime.env's form; npu_sim cannot import it)
        sys.stderr.write(f"npu-sim: warning: {BLAS_THREADS_ENV}={raw!r} is not valid "
                         "(a whole number >= 0); using 1\n")
        n = 1
    cpus = os.cpu_count() or 1
    if n > cpus:   # more threads than CPUs only oversubscribe them (OpenBLAS clamps silently at its build's max)
        sys.stderr.write(f"npu-sim: warning: {BLAS_THREADS_ENV}={raw!r} is more than this machine's "
                         f"{cpus} CPUs; using {cpus}\n")
        n = cpus
    return n


def openblas_setters(maps_path: str = "/proc/self/maps") -> list | None:
    """The ctypes ``openblas_set_num_threads`` function of every OpenBLAS mapped into
    this process (read from ``maps_path``), or None when the direct path does not
    apply: the file is unreadable, another BLAS is loaded, or a library lacks the entry
    point. An empty list means no BLAS is loaded."""
    try:
        with open(maps_path, encoding="utf-8", errors="replace") as f:
            paths = dict.fromkeys(line.split(None, 5)[5].strip() for line in f if line.count(" ") >= 5
                                  and ".so" in line)
    except (OSError, IndexError):
        return None
    import ctypes
    out = []
    for path in paths:
        base = os.path.basename(path).lower()
        if base.startswith(_OTHER_BLAS):
            return None
        if "openblas" not in base:
            continue
        try:
            lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0) | ctypes.RTLD_LOCAL)
        except OSError:
            return None
        for name in ("openblas_set_num_threads", "openblas_set_num_threads64_",
                     "scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.argtypes, fn.restype = [ctypes.c_int], None
                out.append(fn)
                break
        else:
            return None
    return out


def limit_blas_threads() -> None:
    """Set the BLAS thread pool to :func:`blas_threads_wanted` threads, once per process
    (module doc: directly for OpenBLAS, else through threadpoolctl). The limit is
    process-wide and applies to the BLAS libraries loaded at the time of the call."""
    global _blas_limited
    if _blas_limited:
        return
    _blas_limited = True
    n = blas_threads_wanted()
    if n <= 0:
        return
    setters = openblas_setters()
    if setters is None:
        from threadpoolctl import threadpool_limits
        threadpool_limits(limits=n, user_api="blas")
        return
    for fn in setters:
        fn(n)
