"""What every op's ``tiling.py`` shares: the result type, and strategies in a registry.

Tiling is a pure function of (chip config, shapes, dtypes, attrs): no device, no
runtime, no tensor addresses, so a tiling test feeds a :class:`~npu_sim.ChipConfig`
and expects a key, tiling data, ``block_dim`` and workspace size (as ops-nn's
``tests/ut/op_host/test_*_tiling.cpp`` do).

An op with more than one way to tile writes each way as a :class:`TilingStrategy`
subclass and registers it with a priority in the op's :class:`TilingRegistry`, in the
spirit of opbase's tiling base class and ops-nn's ``REGISTER_OPS_TILING_TEMPLATE(op,
class, priority)``: phase 1 asks the strategies in priority order (lowest number
first); each answers "not mine" (:meth:`TilingStrategy.is_capable` returns False) or
fills the tiling (:meth:`TilingStrategy.do_tiling`). The names of the strategies asked
are kept in :attr:`TilingResult.candidates`, which phase 1 reports (and the host clock
prices, ``acl_runtime.host_clock``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Generic, TypeVar

from .status import ACLNN_ERR_INNER_TILING_ERROR, ACLNN_ERR_PARAM_INVALID, AclnnError


#: field names of each tiling struct class :func:`tiling_dict` has seen
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = frozenset({int, float, bool, str, type(None)})


def tiling_dict(td) -> dict[str, Any]:
    """``dataclasses.asdict(td)`` of a tiling struct (the trace's ``"tiling"``), the same
    dict: a struct whose fields are all plain scalars (int, float, bool, str, None: what
    asdict copies as they are) is read field by field, anything else goes through asdict
    (nested structs, containers). TypeError if ``td`` is not a dataclass instance."""
    cls = td.__class__
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(td))
    d = {n: getattr(td, n) for n in names}
    for v in d.values():
        if v.__class__ not in _SCALARS:
            return asdict(td)
    return d


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for integers (b > 0)."""
    return -(-a // b)


def align_up(a: int, b: int) -> int:
    """``a`` rounded up to a multiple of ``b`` (b > 0)."""
    return ceil_div(a, b) * b


@dataclass(frozen=True)
class TilingResult:
    """What a tiling run hands to the kernel half and to phase 1.

    Attributes:
        strategy: the strategy that filled the tiling ("fused", "one_pass", ...).
        tiling_key: the kernel variant (an op's ``XxxTilingKey`` member as int).
        block_dim: blocks of the (first) kernel: AIVs for vector kernels, AICs for
            cube kernels, AIC+2AIV groups for MIX kernels.
        workspace_bytes: device workspace the op's own kernels need (bytes; the
            contiguous copies phase 1 may add come on top).
        data: the op's tiling dataclass (``XxxTilingData``), read by ``kernel.py``.
        candidates: names of the strategies asked, in order (the chosen one last).
    """

    strategy: str
    tiling_key: int
    block_dim: int
    workspace_bytes: int
    data: Any
    candidates: tuple[str, ...] = ()


Ctx = TypeVar("Ctx")


class TilingStrategy(Generic[Ctx]):
    """One way to tile an op. Subclasses set ``name`` and implement both methods;
    ``priority`` is set by :meth:`TilingRegistry.register`."""

    name: str = ""
    priority: int = 0

    def is_capable(self, ctx: Ctx) -> bool:  # pragma: no cover - abstract
        """True when this strategy can tile ``ctx`` on its chip (e.g. a row fits UB)."""
        raise NotImplementedError

    def do_tiling(self, ctx: Ctx) -> TilingResult:  # pragma: no cover - abstract
        """Fill the tiling for ``ctx``; raises AclnnError(561002) if it cannot."""
        raise NotImplementedError


@dataclass
class TilingRegistry(Generic[Ctx]):
    """The strategies of one op type, asked in priority order (lowest first).

    ``register(priority)`` is a class decorator; :meth:`run` picks the first capable
    strategy, or the one forced by name (a simulator extension some ops expose for
    benchmarks and tests)."""

    op_type: str
    strategies: list[TilingStrategy] = field(default_factory=list)

    def register(self, priority: int) -> Callable[[type], type]:
        """Register a :class:`TilingStrategy` subclass at ``priority``. Raises
        ValueError for a duplicate name or priority."""
        def deco(cls: type) -> type:
            inst = cls()
            inst.priority = priority
            if any(s.name == inst.name or s.priority == priority for s in self.strategies):
                raise ValueError(f"{self.op_type}: strategy {inst.name!r} or priority {priority} registered twice")
            self.strategies.append(inst)
            self.strategies.sort(key=lambda s: s.priority)
            return cls
        return deco

    @property
    def names(self) -> tuple[str, ...]:
        """Strategy names in priority order."""
        return tuple(s.name for s in self.strategies)

    def run(self, ctx: Ctx, forced: str | None = None) -> TilingResult:
        """Tile ``ctx``. ``forced`` None: the first capable strategy in priority order;
        a name: that strategy (161002 for an unknown name, 561002 if it is not
        capable). 561002 when no strategy is capable."""
        op = f"aclnn{self.op_type}"
        if forced is not None:
            match = [s for s in self.strategies if s.name == forced]
            if not match:
                raise AclnnError(ACLNN_ERR_PARAM_INVALID, f"{op}: strategy must be one of "
                                                          f"{', '.join(self.names)} or None, got {forced!r}")
            s = match[0]
            if not s.is_capable(ctx):
                raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"{op}: strategy {forced!r} cannot tile this "
                                                                f"problem: {getattr(s, 'why_not', lambda c: '')(ctx)}")
            return _with_candidates(s.do_tiling(ctx), (s.name,))
        asked: list[str] = []
        for s in self.strategies:
            asked.append(s.name)
            if s.is_capable(ctx):
                return _with_candidates(s.do_tiling(ctx), tuple(asked))
        raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"{op}: no tiling strategy fits ({', '.join(asked)})")


def _with_candidates(res: TilingResult, asked: tuple[str, ...]) -> TilingResult:
    if res.candidates == asked:
        return res
    return TilingResult(res.strategy, res.tiling_key, res.block_dim, res.workspace_bytes, res.data, asked)
