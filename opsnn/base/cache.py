"""The executor cache: phase 1 done once per distinct call, for every op.

In the spirit of torch_npu's aclnn executor cache (it hashes an aclnn call's
tensor metadata and attributes and reuses the executor on a match), ``prepare``
(:mod:`opsnn.base.op`) looks up a key made of everything that decides the kernel
and, on a hit, returns a new executor handle bound to the cached
:class:`~opsnn.base.executor.ExecutorPlan` and to this call's tensors: no
validation, no shape inference, no tiling. Addresses are not in the key: plans
hold none (bodies read addresses at phase 2), so a hit works for new buffers.

The key, computed without any per-op code:

* the op name, the builder's code object, the chip (the cache is emptied when the
  device's chip object changes) and the deterministic flag
  (``acl.rt.set_sys_param_opt(ACL_OPT_DETERMINISTIC, 1)``);
* every value the phase-1 builder can see: its closure cells, positional and
  keyword arguments, walked recursively. An ``aclTensor`` contributes its view
  shape, dtype, strides, offset, storage format, storage shape and destroyed
  flag, plus which earlier argument it is, if the same object appears twice
  (``self is out`` is not the same call as two distinct tensors). Scalars
  contribute (type, value), floats bit-exactly (``float.hex``) so ``-0.0`` and
  ``0.0`` or ``1`` and ``1.0`` never share; ``aclScalar`` its dtype and value;
  int arrays, tuples, lists and dicts their items; nested functions their code
  and closures; small numpy arrays (<= 4 KiB) their bytes. cubeMathType and any
  other attribute are covered because they are arguments.
* anything else (an unknown object, a large array) makes the call *uncacheable*:
  it is prepared normally and counted under ``uncacheable``.

The rule this relies on, stated for op authors: a phase-1 builder depends only on
its arguments, the chip and the deterministic flag (not on module globals that
change, not on device addresses). Wrap a builder in :func:`no_executor_cache` if
it cannot promise that.

Bounded LRU (``NPU_SIM_EXECUTOR_CACHE_SIZE``, default 1024 plans); on/off with
``NPU_SIM_EXECUTOR_CACHE=0`` or :func:`set_executor_cache`; ``NPU_SIM_EXECUTOR_CACHE=verify``
(or ``set_executor_cache(verify=True)``) also rebuilds the plan on every hit and
raises :class:`CacheVerifyError` if it differs from the cached one -- a debug mode
for finding a key that misses something (run the test suite with it);
:func:`executor_cache_stats` reports hits, misses, evictions, uncacheable calls
and the size.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any, Callable

import numpy as np

from acl_runtime.env import env_choice, env_int

from .tensor import aclIntArray, aclScalar, aclTensor

DEFAULT_CAPACITY = env_int("NPU_SIM_EXECUTOR_CACHE_SIZE", 1024, min_value=1)   # a bad value: one line, default
#: NPU_SIM_EXECUTOR_CACHE words -> on / off / verify
_CACHE_WORDS = {w: "on" for w in ("1", "on", "true", "yes")} | {w: "off" for w in ("0", "off", "false", "no")} \
    | {"verify": "verify"}
#: largest numpy array (bytes) a key may embed; larger ones make the call uncacheable
MAX_ARRAY_KEY_BYTES = 4096
_MAX_DEPTH = 8

_NoneType = type(None)
_PLAIN = frozenset({int, str, bool, _NoneType, bytes})


class _Uncacheable(Exception):
    pass


class CacheVerifyError(AssertionError):
    """Verify mode: a cache hit returned a plan that differs from a fresh phase 1."""


def plan_signature(plan) -> tuple:
    """What must match between a cached plan and a fresh one: op, workspace, info,
    and each kernel's name, core type, blocks, queue depth, buffers, tiling key, args."""
    return (plan.op_name, plan.workspace_size, plan.info, plan.n_inputs, len(plan.outputs),
            [(k.spec.name, k.spec.core_type, k.spec.blocks, k.spec.buffer_num, k.spec.buffers, k.spec.tiling_key,
              k.spec.args) for k in plan.kernels])


def _tensor_key(v: aclTensor, tensors: list) -> tuple:
    """Key part of a tensor; records it in ``tensors`` (first occurrence only:
    aclTensor has no ``__eq__``, so ``in`` / ``index`` compare identity)."""
    if v in tensors:
        return ("alias", tensors.index(v))
    tensors.append(v)
    return (v.view_shape, v.data_type, v.view_strides, v.view_offset, v.storage_format, v.storage_shape, v.destroyed)


def _walk(v: Any, tensors: list, depth: int) -> Any:
    """Hashable key part of ``v``; appends tensors (first occurrence) to ``tensors``."""
    cls = v.__class__
    if cls is aclTensor:
        return _tensor_key(v, tensors)
    if cls in _PLAIN or cls is aclIntArray:  # aclIntArray holds plain ints by construction
        return (cls, v)
    if cls is float:
        return (float, v.hex())
    if depth > _MAX_DEPTH:
        raise _Uncacheable("nested too deeply")
    d = depth + 1
    if cls is tuple or cls is list or isinstance(v, (tuple, list)):
        return (cls, tuple([_walk(x, tensors, d) for x in v]))
    if isinstance(v, int):  # enums (aclDataType, ...) and other int subclasses
        return (cls, int(v))
    if cls is aclScalar:
        return (aclScalar, _walk(v.data_type, tensors, d), _walk(v.value, tensors, d))
    if isinstance(v, float):
        return (cls, float(v).hex())
    if isinstance(v, np.generic):
        return (cls, v.dtype.str, v.tobytes())
    if cls is dict:
        return (dict, tuple(sorted((k, _walk(x, tensors, d)) for k, x in v.items())))
    if cls is FunctionType:
        return _walk_fn(v, tensors, d)
    if cls is MethodType:
        return (MethodType, _walk_fn(v.__func__, tensors, d), _walk(v.__self__, tensors, d))
    if isinstance(v, (type, ModuleType, BuiltinFunctionType)):
        return v  # long-lived, compared by identity
    if isinstance(v, np.ndarray) and v.nbytes <= MAX_ARRAY_KEY_BYTES:
        return (np.ndarray, v.dtype.str, v.shape, v.tobytes())
    raise _Uncacheable(f"cannot key a {cls.__name__}")


def _walk_fn(fn: FunctionType, tensors: list, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise _Uncacheable("nested too deeply")
    cells = fn.__closure__
    parts = tuple([_walk(c.cell_contents, tensors, depth + 1) for c in cells]) if cells else ()
    dflt = fn.__defaults__
    return (fn.__code__, parts, _walk(dflt, tensors, depth + 1) if dflt else None)


def no_executor_cache(build: Callable) -> Callable:
    """Mark a phase-1 builder as never cached (it depends on more than its arguments)."""
    build.__npu_sim_no_cache__ = True
    return build


class ExecutorCache:
    """Bounded LRU of executor plans. See the module docstring for the key."""

    __slots__ = ("enabled", "verify", "capacity", "_entries", "_chip", "hits", "misses", "evictions", "uncacheable")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, enabled: bool | None = None) -> None:
        env = env_choice("NPU_SIM_EXECUTOR_CACHE", "on", _CACHE_WORDS)
        if enabled is None:
            enabled = env != "off"
        self.enabled = bool(enabled)
        self.verify = env == "verify"
        self.capacity = max(int(capacity), 1)
        self._entries: OrderedDict = OrderedDict()
        self._chip = None
        self.hits = self.misses = self.evictions = self.uncacheable = 0

    def key(self, op_name: str, build: Callable, args: tuple, kwargs: dict, chip: Any,
            deterministic: int) -> tuple[Any, list] | tuple[None, None]:
        """``(key, tensors)`` for one phase-1 call, or ``(None, None)`` if uncacheable
        (counted). ``tensors`` lists the call's aclTensors in key order."""
        if chip is not self._chip:  # another chip: every plan is stale
            self._entries.clear()
            self._chip = chip
        tensors: list = []
        try:
            if build.__class__ is FunctionType:
                if getattr(build, "__npu_sim_no_cache__", False):
                    raise _Uncacheable("builder opted out")
                cells = build.__closure__
                parts = []
                if cells:
                    for c in cells:  # the common cases inline: tensors, plain values
                        v = c.cell_contents
                        cls = v.__class__
                        if cls is aclTensor:
                            parts.append(_tensor_key(v, tensors))
                        elif cls in _PLAIN:
                            parts.append((cls, v))
                        else:
                            parts.append(_walk(v, tensors, 0))
                body = tuple(parts)
                code = build.__code__
            else:
                body = _walk(build, tensors, 0)
                code = None
            a = tuple([_walk(x, tensors, 0) for x in args]) if args else ()
            kw = _walk(kwargs, tensors, 0) if kwargs else None
        except (_Uncacheable, TypeError):  # TypeError: e.g. dict keys that do not sort
            self.uncacheable += 1
            return None, None
        return (op_name, code, chip.name, deterministic, body, a, kw), tensors

    def get(self, key: Any):
        """The plan cached under ``key`` (most recently used now), or None (a miss)."""
        plan = self._entries.get(key)
        if plan is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return plan

    def put(self, key: Any, plan, tensors: list) -> bool:
        """Cache ``plan`` built from a call whose tensors are ``tensors``. Refused (False,
        counted as uncacheable) if a slot is not one of the call's tensors."""
        pos = {id(t): i for i, t in enumerate(tensors)}
        slot_pos = []
        for t in plan.inputs + plan.outputs:
            i = pos.get(id(t)) if t is not None else None
            if i is None:
                self.uncacheable += 1
                return False
            slot_pos.append(i)
        plan.slot_pos = tuple(slot_pos)
        entries = self._entries
        entries[key] = plan
        entries.move_to_end(key)
        while len(entries) > self.capacity:
            entries.popitem(last=False)
            self.evictions += 1
        return True

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def stats(self) -> dict[str, Any]:
        looked = self.hits + self.misses
        return {"enabled": self.enabled, "verify": self.verify, "size": len(self._entries), "capacity": self.capacity,
                "hits": self.hits, "misses": self.misses, "evictions": self.evictions, "uncacheable": self.uncacheable,
                "hit_rate": self.hits / looked if looked else 0.0}

    def reset_stats(self) -> None:
        self.hits = self.misses = self.evictions = self.uncacheable = 0


#: the process-wide executor cache
CACHE = ExecutorCache()


def executor_cache_stats() -> dict[str, Any]:
    """Executor cache counters: ``enabled``, ``size`` (plans held), ``capacity``,
    ``hits``, ``misses``, ``evictions`` (LRU), ``uncacheable`` (calls whose
    arguments could not be keyed, or whose plan could not be rebound) and
    ``hit_rate`` = hits / (hits + misses)."""
    return CACHE.stats()


def set_executor_cache(enabled: bool | None = None, capacity: int | None = None,
                       verify: bool | None = None) -> dict[str, Any]:
    """Turn the executor cache on or off, resize it (evicting the least recently
    used plans beyond ``capacity``, an int >= 1, else ValueError) and/or switch
    verify mode. Turning it off empties it. Returns the previous ``{"enabled",
    "capacity", "verify"}`` so a caller can restore them: ``set_executor_cache(**prev)``."""
    prev = {"enabled": CACHE.enabled, "capacity": CACHE.capacity, "verify": CACHE.verify}
    if verify is not None:
        CACHE.verify = bool(verify)
    if enabled is not None:
        CACHE.enabled = bool(enabled)
        if not CACHE.enabled:
            CACHE.clear()
    if capacity is not None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"executor cache capacity must be an int >= 1, got {capacity!r}")
        CACHE.capacity = capacity
        while len(CACHE._entries) > capacity:
            CACHE._entries.popitem(last=False)
            CACHE.evictions += 1
    return prev


def clear_executor_cache() -> None:
    """Drop every cached plan and zero the counters."""
    CACHE.clear()
    CACHE.reset_stats()
