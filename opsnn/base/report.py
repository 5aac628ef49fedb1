"""The typed outcome of phase 1: what was chosen, what was tried, what it costs.

Every ``aclnnXxxGetWorkspaceSize`` that builds an executor leaves a
:class:`Phase1Report` on the executor's plan (``executor.report``). The host clock
prices phase 1 from it (:func:`acl_runtime.host_clock.prepare_cost_ns`: one tiling
run per kernel, plus ``TILING_CANDIDATE_NS`` for each strategy asked before the one
that tiled), and the phase-1 host span carries its fields, so the trace says why a
phase 1 took the host time it did.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .tiling_base import TilingResult


@dataclass(frozen=True)
class Phase1Report:
    """What one phase 1 decided.

    Attributes:
        op: op type without the ``aclnn`` prefix ("LayerNorm").
        kernels: kernel names, in launch order (contiguous copies included).
        core_types: "AIC"/"AIV"/"MIX" of each kernel.
        strategy: the tiling strategy that tiled the op's own kernel ("" when the op
            states none: single-strategy ops, empty tensors).
        candidates: the strategies asked, in priority order, the chosen one last
            (``TilingResult.candidates``; ``(strategy,)`` or ``()`` when the op has no
            registry).
        workspace_parts: bytes of device workspace by purpose: ``"tiling"`` (what the
            op's own kernels asked for) and ``"contiguous_copies"`` (the rest: the
            packed copies of non-contiguous inputs/outputs); they sum to the
            workspace size phase 1 returns.
    """

    op: str
    kernels: tuple[str, ...]
    core_types: tuple[str, ...]
    strategy: str = ""
    candidates: tuple[str, ...] = ()
    workspace_parts: dict[str, int] = field(default_factory=dict)

    @property
    def workspace_bytes(self) -> int:
        """Total workspace (bytes): the sum of :attr:`workspace_parts`."""
        return sum(self.workspace_parts.values())

    @property
    def extra_candidates(self) -> int:
        """Strategies asked before the one that tiled (the host clock charges each)."""
        return max(0, len(self.candidates) - 1)

    def trace_args(self) -> dict:
        """The fields as JSON-able host-span args."""
        return {"strategy": self.strategy, "tiling_candidates": list(self.candidates),
                "workspace_parts": dict(self.workspace_parts)}


def build_report(op: str, kernels: list, workspace_size: int, tiling: TilingResult | None) -> Phase1Report:
    """The report of a plan whose kernels are ``kernels`` (PreparedKernel list) and
    whose workspace is ``workspace_size`` bytes; ``tiling``: the op's TilingResult
    when its builder passed one (``aclOpExecutor(..., tiling=res)``)."""
    specs = [k.spec for k in kernels]
    strategy = tiling.strategy if tiling is not None else next((s.strategy for s in specs if s.strategy), "")
    candidates = tuple(tiling.candidates) if tiling is not None and tiling.candidates else \
        ((strategy,) if strategy else ())
    own = min(int(tiling.workspace_bytes), workspace_size) if tiling is not None else 0
    parts = {"tiling": own, "contiguous_copies": workspace_size - own} if workspace_size else {}
    return Phase1Report(op, tuple(s.name for s in specs), tuple(s.core_type.value for s in specs), strategy,
                        candidates, parts)
