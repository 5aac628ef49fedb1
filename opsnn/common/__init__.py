"""Shared l0 ops used by many operators (contiguous copies, view copies)."""
