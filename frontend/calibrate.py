"""Calibrate a chip config against msprof data: ``npu-sim calibrate OP_SUMMARY.csv``.

Input: msprof's ``op_summary_*.csv``. Columns used (CANN profiling guide, op_summary):
``Op Name``, ``OP Type``, ``Task Type``, ``Task Duration(us)``, ``Block Dim``, ``Input
Shapes``, ``Input Data Types``, ``Input Formats``, ``Output Shapes``. Shapes are
``"d0,d1;d0,d1"`` (``;`` between tensors, ``,`` between dims, ``""`` for a scalar),
data types ``"FLOAT16;FLOAT16"`` (a ``DT_`` prefix is accepted). Other columns (the
aic_/aiv_ pipe ratios and so on) are read but not used.

Each row whose op type npu-sim has (:data:`SIMULATORS`) is re-simulated from its
shapes and dtypes in timing-only mode (``acl.init(timing_only=True)``), one launch on
a fresh device, and its simulated device time (the kernel spans of that launch, as
msprof's Task Duration) is compared with the measured one. Rows it cannot simulate
are kept with the reason (:class:`Row.skip`).

The fit: the named efficiency parameters of :data:`PARAMS` (sustained bandwidth =
``hbm_efficiency``, launch overhead = ``kernel_launch_ns``, ``cube_efficiency``,
``vector_efficiency``) minimise the sum of squared relative errors
``(simulated / measured - 1)^2`` by Levenberg-Marquardt with a Jacobian from finite
differences (each evaluation re-simulates every row), plus a weak prior
(:data:`PRIOR_WEIGHT`) towards the starting value, so a parameter the rows hardly
move (the cube efficiency with no matmul rows) stays at the chip's value.
Errors: :class:`CalibrationError`, one line naming the file and row.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REQUIRED = ("Op Name", "OP Type", "Task Type", "Task Duration(us)", "Block Dim", "Input Shapes",
            "Input Data Types", "Input Formats", "Output Shapes")

#: fitted parameters: (ChipConfig field, log-scale?, finite-difference step, bounds)
PARAMS = {
    "hbm_efficiency": (True, 0.02, (0.05, 8.0)),
    "kernel_launch_ns": (False, 200.0, (0.0, 1e6)),
    "cube_efficiency": (True, 0.02, (0.05, 8.0)),
    "vector_efficiency": (True, 0.02, (0.05, 8.0)),
}


#: weight of the prior that pulls each parameter towards the starting chip's value
PRIOR_WEIGHT = 1e-3


class CalibrationError(Exception):
    """A bad op_summary file (missing column, bad number or shape) or a failed fit."""


@dataclass
class Row:
    """One op_summary row. ``measured_us`` from the file; ``sim_us`` after simulation
    (None if skipped, with ``skip`` the reason)."""

    line: int
    name: str
    op_type: str
    measured_us: float
    shapes: list[tuple[int, ...]]
    dtypes: list[str]
    out_shapes: list[tuple[int, ...]]
    skip: str = ""
    sim_us: float | None = None
    extra: dict = field(default_factory=dict)


def _shapes(text: str, path, line: int, col: str) -> list[tuple[int, ...]]:
    text = (text or "").strip().strip('"')
    if not text or text.upper() in ("N/A", "NA"):   # msprof's (and npu-trace's) "not recorded"
        return []
    out = []
    for part in text.split(";"):
        part = part.strip()
        try:
            out.append(tuple(int(d) for d in part.split(",")) if part else ())
        except ValueError:
            raise CalibrationError(f"{path}: row {line}: cannot parse {col} {text!r}") from None
    return out


def read_op_summary(path) -> list[Row]:
    """Parse an op_summary CSV into rows (every row kept). Raises CalibrationError for
    a missing file or column, a non-numeric or negative duration, an unparseable shape."""
    path = Path(path)
    try:
        f = path.open(newline="", encoding="utf-8-sig")
    except OSError as e:
        raise CalibrationError(f"{path}: {e.strerror or e}") from None
    with f:
        reader = csv.DictReader(f)
        cols = [c.strip() for c in (reader.fieldnames or [])]
        missing = [c for c in REQUIRED if c not in cols]
        if missing:
            raise CalibrationError(f"{path}: missing column(s) {', '.join(missing)}")
        rows = []
        for i, raw in enumerate(reader, start=2):
            r = {k.strip(): (v or "").strip() for k, v in raw.items() if k is not None}
            try:
                dur = float(r["Task Duration(us)"])
            except ValueError:
                raise CalibrationError(f"{path}: row {i}: Task Duration(us) {r['Task Duration(us)']!r} "
                                       f"is not a number") from None
            if not math.isfinite(dur) or dur < 0:
                raise CalibrationError(f"{path}: row {i}: Task Duration(us) {dur} is not a non-negative number")
            dtypes = [d.strip().upper().removeprefix("DT_") for d in r["Input Data Types"].split(";") if d.strip()]
            rows.append(Row(i, r["Op Name"], r["OP Type"], dur, _shapes(r["Input Shapes"], path, i, "Input Shapes"),
                            dtypes, _shapes(r["Output Shapes"], path, i, "Output Shapes")))
    if not rows:
        raise CalibrationError(f"{path}: no rows")
    return rows


# ---- re-simulation -------------------------------------------------------------------------
_DT = {"FLOAT16": ("ACL_FLOAT16", 2), "FLOAT": ("ACL_FLOAT", 4), "FLOAT32": ("ACL_FLOAT", 4),
       "BF16": ("ACL_BF16", 2), "BFLOAT16": ("ACL_BF16", 2)}


def _tensor(shape, dtype):
    import opsnn
    from acl_runtime import acl
    name, item = _DT[dtype]
    n = math.prod(shape) if shape else 1
    ptr, ret = acl.rt.malloc(max(1, n * item), acl.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret:
        raise RuntimeError(f"aclrtMalloc of {n * item} B failed ({ret})")
    dt = getattr(opsnn.aclDataType, name)
    return opsnn.aclCreateTensor(tuple(shape), dt, None, 0, opsnn.aclFormat.ACL_FORMAT_ND, tuple(shape), ptr)


def _binary(fn):
    def sim(row):
        import opsnn
        a, b = (_tensor(s, row.dtypes[min(i, len(row.dtypes) - 1)]) for i, s in enumerate(row.shapes[:2]))
        out = _tensor(row.out_shapes[0], row.dtypes[0])
        if fn == "Add" or fn == "Sub":
            return getattr(opsnn, f"aclnn{fn}GetWorkspaceSize")(a, b, 1.0, out), getattr(opsnn, f"aclnn{fn}")
        return getattr(opsnn, f"aclnn{fn}GetWorkspaceSize")(a, b, out), getattr(opsnn, f"aclnn{fn}")
    return sim, 2


def _matmul(row):
    import opsnn
    a, b = (_tensor(s, row.dtypes[min(i, len(row.dtypes) - 1)]) for i, s in enumerate(row.shapes[:2]))
    out = _tensor(row.out_shapes[0], row.dtypes[0])
    return opsnn.aclnnMatmulGetWorkspaceSize(a, b, out, 0), opsnn.aclnnMatmul


def _softmax(row):
    import opsnn
    x = _tensor(row.shapes[0], row.dtypes[0])
    out = _tensor(row.out_shapes[0], row.dtypes[0])
    return opsnn.aclnnSoftmaxGetWorkspaceSize(x, -1, out), opsnn.aclnnSoftmax


#: msprof OP Type -> (prepare(row) -> ((ws, executor, status), launch), inputs needed)
SIMULATORS = {"MatMul": (_matmul, 2), "Matmul": (_matmul, 2), "MatMulV2": (_matmul, 2), "MatMulV3": (_matmul, 2),
              "BatchMatMul": (_matmul, 2), "BatchMatMulV2": (_matmul, 2), "SoftmaxV2": (_softmax, 1),
              "Softmax": (_softmax, 1), "Add": _binary("Add"), "Sub": _binary("Sub"), "Mul": _binary("Mul"),
              "Div": _binary("Div")}


def _why_not(row: Row) -> str:
    if row.op_type not in SIMULATORS:
        return f"op type {row.op_type!r} is not simulated"
    need = SIMULATORS[row.op_type][1]
    if len(row.shapes) < need or not row.out_shapes:
        return f"needs {need} input shape(s) and an output shape"
    bad = [d for d in row.dtypes if d not in _DT]
    if bad or not row.dtypes:
        return f"dtype {bad[0] if bad else '(none)'} not supported"
    return ""


def simulate_rows(chip, rows: list[Row]) -> list[Row]:
    """Simulate every simulable row on ``chip`` (a ChipConfig), setting ``sim_us`` and
    ``skip``; a row whose op rejects its shapes is skipped with the status message."""
    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    for row in rows:
        row.skip = _why_not(row)
        row.sim_us = None
        if row.skip:
            continue
        if runtime().initialized:
            acl.finalize()
        acl.init(chip=chip, timing_only=True)
        acl.rt.set_device(0)
        try:
            (ws, ex, ret), launch = SIMULATORS[row.op_type][0](row)
            if ret != 0:
                row.skip = f"the op rejects these shapes: {opsnn.aclGetRecentErrMsg() or ret}"
                continue
            wptr = 0
            if ws:
                wptr, _ = acl.rt.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)
            recs = runtime().device.kernel_records
            first = len(recs)
            if launch(wptr, ws, ex, 0) != 0 or acl.rt.synchronize_stream(0) != 0:
                row.skip = f"launch failed: {opsnn.aclGetRecentErrMsg()}"
                continue
            row.sim_us = sum(r["dur_ns"] for r in recs[first:]) / 1e3
        except RuntimeError as e:
            row.skip = str(e)
    if runtime().initialized:
        acl.finalize()
    return rows


# ---- the fit -------------------------------------------------------------------------------
def _apply(chip, names, x):
    upd = {}
    for n, v in zip(names, x):
        log, _, (lo, hi) = PARAMS[n]
        val = math.exp(v) if log else v
        upd[n] = float(min(hi, max(lo, val)))
    return chip.model_copy(update=upd)


def _x0(chip, names):
    return np.array([math.log(getattr(chip, n)) if PARAMS[n][0] else float(getattr(chip, n)) for n in names])


def rel_errors(rows: list[Row]) -> np.ndarray:
    """``sim / measured - 1`` of the simulated rows with a positive measurement."""
    return np.array([r.sim_us / r.measured_us - 1.0 for r in rows if r.sim_us is not None and r.measured_us > 0])


@dataclass
class Fit:
    """Result of :func:`calibrate`: the calibrated chip, the fitted values, the rows
    before and after (``before_us`` per row), and the RMS relative error before/after."""

    chip: object
    values: dict
    rows: list[Row]
    before_us: list
    rms_before: float
    rms_after: float


def calibrate(chip, rows: list[Row], params=tuple(PARAMS), iterations: int = 8) -> Fit:
    """Fit ``params`` of ``chip`` to ``rows`` (see the module docstring)."""
    usable = [r for r in simulate_rows(chip, rows) if r.sim_us is not None and r.measured_us > 0]
    before = [r.sim_us for r in rows]
    if not usable:
        raise CalibrationError("no row could be simulated; nothing to fit")
    names = list(params)
    x = _x0(chip, names)

    # a weak prior keeps a parameter the rows hardly move at the chip's value
    # (PRIOR_WEIGHT per unit of log-efficiency, or per 1 us of launch overhead)
    scale = np.array([1.0 if PARAMS[n][0] else 1000.0 for n in names])
    x0 = x.copy()

    def resid(xv):
        simulate_rows(_apply(chip, names, xv), usable)
        return np.concatenate([rel_errors(usable), PRIOR_WEIGHT * (xv - x0) / scale])

    r = resid(x)
    rms0 = float(np.sqrt(np.mean(rel_errors(usable) ** 2)))
    lam = 1e-3
    for _ in range(iterations):
        J = np.zeros((len(r), len(names)))
        for k, n in enumerate(names):
            step = PARAMS[n][1]
            xp = x.copy()
            xp[k] += step
            J[:, k] = (resid(xp) - r) / step
        active = np.abs(J).max(axis=0) > 1e-6
        if not active.any():
            break
        Ja = J[:, active]
        A = Ja.T @ Ja
        g = Ja.T @ r
        improved = False
        for _try in range(6):
            dx = np.zeros(len(names))
            dx[active] = -np.linalg.solve(A + lam * np.diag(np.diag(A) + 1e-12), g)
            r_new = resid(x + dx)
            if float(r_new @ r_new) < float(r @ r):
                x, r = x + dx, r_new
                lam = max(lam / 10, 1e-9)
                improved = True
                break
            lam *= 10
        if not improved or float(np.abs(dx).max()) < 1e-5:
            break
    cal = _apply(chip, names, x)
    simulate_rows(cal, rows)
    after = rel_errors([r_ for r_ in rows if r_.sim_us is not None])
    values = {n: getattr(cal, n) for n in names}
    cal = cal.model_copy(update={"name": f"{chip.name}-calibrated",
                                 "description": f"{chip.name} calibrated by npu-sim calibrate"})
    return Fit(cal, values, rows, before, rms0, float(np.sqrt(np.mean(after ** 2))) if len(after) else 0.0)
