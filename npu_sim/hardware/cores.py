"""AI Cores and the tile pipeline that runs one block on one core.

A core is AIC (pipes MTE2, MTE1, CUBE, FIXPIPE, SCALAR; buffers L1, L0A, L0B, L0C, BT)
or AIV (pipes MTE2, VECTOR, MTE3, SCALAR; buffer UB). On the separated architecture
(910B) each AI Core is one AIC and two AIVs; on the coupled one (310P) an AI Core has
both units and its vector unit is modelled as one more AIV-type core.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..chips import ChipConfig
from ..program import Buffer, CoreType


@dataclass(slots=True)
class Core:
    """One core. ``name`` is its trace label, e.g. "AIC3" or "AIV17"."""

    name: str
    core_type: CoreType
    index: int


def buffer_capacity(chip: ChipConfig, core_type: CoreType) -> dict[Buffer, int]:
    """Capacity in bytes of each on-chip buffer a core of ``core_type`` owns."""
    if core_type is CoreType.AIV:
        return {Buffer.UB: chip.ub_bytes}
    return {Buffer.L1: chip.l1_bytes, Buffer.L0A: chip.l0a_bytes, Buffer.L0B: chip.l0b_bytes,
            Buffer.L0C: chip.l0c_bytes, Buffer.BT: chip.bias_table_bytes}


def make_cores(chip: ChipConfig) -> dict[CoreType, list[Core]]:
    """The chip's cores by type (AIV includes coupled AI Cores' vector units)."""
    aic = [Core(f"AIC{i}", CoreType.AIC, i) for i in range(chip.aic_count)]
    aiv = [Core(f"AIV{i}", CoreType.AIV, i) for i in range(chip.vector_core_count)]
    return {CoreType.AIC: aic, CoreType.AIV: aiv}


class CorePool:
    """Free cores of one type. :meth:`acquire` hands a core over at once when one is
    free (no SimPy event), else returns an event that fires with a core when one is
    released; waiters are served first come, first served."""

    __slots__ = ("env", "free", "waiters")

    def __init__(self, env, cores: list[Core]):
        self.env = env
        self.free = list(reversed(cores))  # pop() gives the lowest index first
        self.waiters: list = []

    def acquire(self):
        """A free :class:`Core`, or a SimPy event whose value is the core."""
        if self.free and not self.waiters:
            return self.free.pop()
        ev = self.env.event()
        self.waiters.append(ev)
        return ev

    def release(self, core: Core) -> None:
        if self.waiters:
            self.waiters.pop(0).succeed(core)
        else:
            self.free.append(core)
