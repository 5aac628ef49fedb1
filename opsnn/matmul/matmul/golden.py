"""float64 references for the matmul family (tests only; arguments in op_def order)."""
import numpy as np


def matmul_golden(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """self @ mat2 in float64 (Matmul, Mm, BatchMatMul; batch dims broadcast)."""
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def addmm_golden(bias, m1, m2, beta=1.0, alpha=1.0):
    """beta * self + alpha * (mat1 @ mat2) in float64 (Addmm)."""
    return beta * bias.astype(np.float64) + alpha * (m1.astype(np.float64) @ m2.astype(np.float64))
