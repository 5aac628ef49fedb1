"""A kernel spec's plan: what every launch of it needs of its blocks' programs.

Built once per spec and device by ``Device.check_kernel`` (phase 1), so that phase 2's
launches (the fast path of hardware/inline.py) look nothing up per block.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..program import KernelSpec
    from .pipeline import CompiledProgram


class KernelPlan:
    """What every launch of one kernel spec needs of its blocks' programs, none of it
    depending on the clock (built once per spec and device by ``Device.check_kernel``,
    phase 1): ``cps`` the blocks' :class:`~npu_sim.hardware.pipeline.CompiledProgram`
    in block order (plain AIC/AIV cores: ``aiv_split`` 1; None for a MIX kernel);
    ``one_tile`` True when every block is a one-tile program (``CompiledProgram.one_tile``:
    L2-keyed ranges allowed), ``single`` when every block is moreover one without keyed
    ranges (``CompiledProgram.single``); with ``one_tile``, ``stages`` holds each block's
    ``CompiledProgram.stages``; ``distinct`` (optional:
    worked out when None) lists each of ``cps`` once; ``pipes`` the first
    block's pipes and ``same_pipes`` says every block has those pipes, none twice
    (hardware/inline.py's one-tile loop then keeps the kernel's sums locally). ``fused_mix``: a
    MIX kernel whose every block is one fused program (no ``MixBlockProgram``), whose
    blocks then run like a plain kernel's, each on its group (``Device._mix_block``
    adds nothing but the group's release), so the fast path takes it too."""

    __slots__ = ("spec", "cps", "one_tile", "single", "stages", "pipes", "same_pipes", "fused_mix")

    def __init__(self, spec: "KernelSpec", cps: "tuple[CompiledProgram, ...] | None",
                 fused_mix: bool = False, distinct: "tuple[CompiledProgram, ...] | None" = None) -> None:
        self.spec = spec
        self.cps = cps
        self.fused_mix = fused_mix
        if distinct is None and cps is not None:
            distinct = tuple({id(cp): cp for cp in cps}.values())
        # ``distinct``: each of ``cps`` once (the checks below hold for all blocks iff for these)
        self.one_tile = cps is not None and all(cp.one_tile for cp in distinct)
        self.single = self.one_tile and all(cp.single for cp in distinct)
        self.stages = tuple(cp.stages for cp in cps) if self.one_tile else ()
        self.pipes = cps[0].pipes if cps else ()
        self.same_pipes = bool(cps) and cps[0].distinct_pipes and all(cp.pipes == self.pipes for cp in distinct)


__all__ = ["KernelPlan"]
