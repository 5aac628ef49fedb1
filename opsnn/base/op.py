"""The two entry-point shapes every operator shares.

``prepare(op_name, build, *args, **kwargs)`` runs phase 1 and turns its outcome into
CANN's ``(workspace_size, executor, status)``:

1. key the call (:mod:`opsnn.base.cache`: op, builder, every argument's metadata,
   chip, deterministic flag); on a cache hit, bind a pooled executor handle to the
   cached plan and this call's tensors and charge the host a lookup -- done;
2. otherwise run ``build(chip, *args, **kwargs)`` (validate, infer shapes, tile,
   return an ``aclOpExecutor``), check each kernel fits the chip, price the phase 1
   on the host clock (``host_clock.prepare_cost_ns``) and cache the plan.

``execute(...)`` is phase 2 for every op. Its fast path (a live executor of this op,
enough workspace, every slot bound) checks a few attributes, reads the slot
addresses and hands the kernels to the runtime's launch queue
(:mod:`acl_runtime.launch`, the only part of the runtime opsnn uses): no validation of
shapes or dtypes, no tiling, no kernel check, no executor allocation. Anything
unusual falls to :func:`_execute_checked`, which finds the exact status and message.
"""
from __future__ import annotations

from functools import lru_cache
from numbers import Integral
from typing import Callable

from acl_runtime import launch
from acl_runtime.host_clock import HOST_COST_NS, prepare_cost_ns
from acl_runtime.launch import (AclError, charge_prepare, check_kernel, device_chip, launch_prepared,
                                  serialized)

from .cache import CACHE, CacheVerifyError, plan_signature
from .executor import PREPARED, REPEATABLE, RELEASED, ExecutorPlan, _release, aclOpExecutor
from .report import build_report
from .status import (ACLNN_ERR_INNER, ACLNN_ERR_INNER_CREATE_EXECUTOR, ACLNN_ERR_INNER_TILING_ERROR,
                     ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_ERR_RUNTIME_ERROR, ACLNN_SUCCESS,
                     AclnnError, set_recent_err_msg)


def _fail(code: int, msg: str) -> int:
    set_recent_err_msg(msg if msg.startswith("[") else f"[{code}] {msg}")
    return code


@serialized   # thread-safe: one runtime lock (acl_runtime.lock)
def prepare(op_name: str, build: Callable[..., aclOpExecutor], *args, **kwargs):
    """Run phase 1 of ``aclnn<op_name>``. ``build(chip, *args, **kwargs)`` validates,
    infers shapes, tiles and returns an executor (or raises AclnnError); it must
    depend only on its arguments (closure included), the chip and the deterministic
    flag -- the executor cache keys on exactly those.

    Returns ``(workspace_size, executor, status)``; on failure ``(0, None, code)``
    with the message in ``aclGetRecentErrMsg()``: the builder's code, 161002 for a
    malformed argument, 361001 without a device, 561002 for a kernel the chip
    cannot hold, 561101 if the builder returned no executor, 561000 for any other
    internal error.
    """
    chip = device_chip()
    if chip is None:
        try:
            chip = launch.current_chip()
        except AclError as e:
            return 0, None, _fail(ACLNN_ERR_RUNTIME_ERROR, f"aclnn{op_name}GetWorkspaceSize: {e.message}")
    cache = CACHE
    key = tensors = None
    if cache.enabled:
        key, tensors = cache.key(op_name, build, args, kwargs, chip, launch.deterministic())
        if key is not None:
            plan = cache.get(key)
            if plan is not None:
                if cache.verify:
                    _verify(plan, op_name, build, chip, args, kwargs)
                ex = aclOpExecutor.bind(plan, [tensors[i] for i in plan.slot_pos])
                charge_prepare(plan.launch_name + "GetWorkspaceSize", HOST_COST_NS["aclnn_cache_hit"],
                               {"cache": "hit", "workspace": plan.workspace_size})
                return plan.workspace_size, ex, ACLNN_SUCCESS
    name = f"aclnn{op_name}GetWorkspaceSize"
    try:
        ex = build(chip, *args, **kwargs)
    except AclnnError as e:
        return 0, None, _fail(e.code, str(e))
    except (TypeError, ValueError, AttributeError, IndexError, KeyError) as e:  # malformed arguments
        return 0, None, _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: bad argument: {e!r}")
    except Exception as e:  # noqa: BLE001 - never crash the caller
        return 0, None, _fail(ACLNN_ERR_INNER, f"{name}: internal error: {e!r}")
    if not isinstance(ex, aclOpExecutor):
        return 0, None, _fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, f"{name}: the builder returned "
                                                               f"{type(ex).__name__}, not an aclOpExecutor")
    plan = ex.plan
    try:
        for k in plan.kernels:
            check_kernel(k.spec)
    except AclError as e:
        return 0, None, _fail(ACLNN_ERR_INNER_TILING_ERROR, f"{name}: tiling does not fit the chip: {e.message}")
    _finish_plan(plan, chip)
    cached = "off"
    if key is not None:
        cached = "miss" if cache.put(key, plan, tensors) else "uncacheable"
    elif cache.enabled:
        cached = "uncacheable"
    charge_prepare(name, plan.prepare_ns, {"cache": cached, "workspace": plan.workspace_size,
                                           "kernels": [k.spec.name for k in plan.kernels],
                                           "host_cost_ns": plan.prepare_ns, **plan.report.trace_args()})
    return ex.workspace_size, ex, ACLNN_SUCCESS


def _verify(plan: ExecutorPlan, op_name: str, build, chip, args, kwargs) -> None:
    """Verify mode: rebuild and compare with the cached plan (CacheVerifyError if not equal)."""
    fresh = build(chip, *args, **kwargs)
    _finish_plan(fresh.plan, chip)
    fresh.plan.slot_pos = plan.slot_pos
    if plan_signature(fresh.plan) != plan_signature(plan):
        raise CacheVerifyError(f"executor cache: a hit for aclnn{op_name} returned a plan that differs from a "
                               f"fresh phase 1: {plan!r} vs {fresh.plan!r}; the key misses something the builder "
                               "reads")
    fresh.state = RELEASED  # the rebuilt handle is dropped, never pooled


def _finish_plan(plan: ExecutorPlan, chip) -> None:
    """What every plan needs before phase 2: its chip, its phase-1 report and host
    cost (priced from the report), and the host-span args of each launch (computed
    once, shared by every run)."""
    plan.chip = chip
    info = plan.info if isinstance(plan.info, dict) else {}
    plan.report = rep = build_report(plan.op_name, plan.kernels, plan.workspace_size, plan.tiling)
    plan.prepare_ns = prepare_cost_ns(rep.core_types, rep.extra_candidates)
    plan.launch_args = [dict(info, kernel=k.spec.name) for k in plan.kernels]
    outs = [list(t.view_shape) for t in plan.outputs if t is not None]
    for k in plan.kernels:   # msprof's Output Shapes column (npu-trace export --msprof-csv)
        if "output_shapes" not in k.spec.args:
            k.spec.args = dict(k.spec.args, output_shapes=outs)


@serialized
def execute(op_name: str, workspace: int, workspace_size: int, executor: aclOpExecutor | None, stream) -> int:
    """Run phase 2 of ``aclnn<op_name>`` for any op. Status: 0; 161001 null executor,
    null workspace or a slot without an address; 161002 misuse (not an executor,
    another op's executor, released, destroyed, workspace smaller than phase 1
    asked for); 361001 runtime failure (no device, a stream that does not exist,
    an executor prepared for another chip)."""
    if executor.__class__ is aclOpExecutor:
        plan = executor.plan
        need = executor.workspace_size
        if (executor.state <= REPEATABLE and plan.op_name == op_name and executor.overrides is None
                and (workspace.__class__ is int or workspace is None)
                and (not need or (workspace and workspace_size.__class__ is int and workspace_size >= need))
                and plan.chip is device_chip() is not None):   # (one call: `a is b is not None`)
            try:
                addrs = [t.tensor_data for t in executor.slots]
            except AttributeError:  # a None slot: let the checked path say which
                return _execute_checked(op_name, workspace, workspace_size, executor, stream)
            if 0 not in addrs:
                return _launch(f"aclnn{op_name}", executor, plan, addrs, workspace, stream)
    return _execute_checked(op_name, workspace, workspace_size, executor, stream)


def _launch(name: str, executor: aclOpExecutor, plan, addrs: list, workspace, stream) -> int:
    """The end both phase-2 paths share: hand the kernels to the stream, count the run,
    release a single-use executor. 361001 for a runtime refusal, 561000 otherwise."""
    try:
        launch_prepared(stream, plan.kernels, plan.launch_args, plan.launch_name, addrs, workspace or 0,
                        _ranges(executor, addrs, workspace))
    except AclError as e:
        return _fail(ACLNN_ERR_RUNTIME_ERROR, f"{name}: {e}")
    except Exception as e:  # noqa: BLE001 - never crash the caller
        return _fail(ACLNN_ERR_INNER, f"{name}: internal error: {e!r}")
    executor.runs += 1
    if executor.state == PREPARED:
        _release(executor, RELEASED)
    return ACLNN_SUCCESS


def _slot_layout(executor: aclOpExecutor) -> list:
    """Per slot None or (is_input, byte offset, byte extent) of its view: fixed once the
    slot tensors are bound, so it is made at the handle's first launch and kept on it
    (``aclOpExecutor.gm_layout``, reset whenever slots are bound); phase 2 then only adds
    the addresses."""
    layout = executor.gm_layout
    if layout is not None:
        return layout
    n_in = executor.plan.n_inputs
    layout = []
    for i, t in enumerate(executor.slots):
        extent = 0 if t is None else _extent(t.view_shape, t.view_strides)
        if not extent:
            layout.append(None)
            continue
        item = t.np_dtype.itemsize
        layout.append((i < n_in, t.view_offset * item, extent * item))
    executor.gm_layout = layout
    return layout


@lru_cache(maxsize=4096)
def _extent(shape: tuple, strides: tuple) -> int:
    """Elements a view of ``shape`` / ``strides`` (elements) spans from its first to its
    last element, inclusive; 0 for an empty view. A pure function of two tuples of
    ints, so one answer serves every slot of that view (a model has few distinct ones)."""
    if 0 in shape:
        return 0
    return sum((d - 1) * s for d, s in zip(shape, strides)) + 1


def _ranges(executor: aclOpExecutor, addrs: list, workspace) -> tuple:
    """(reads, writes, workspace) device byte ranges of one launch, for the stream
    sanitizer and the device's L2 model: each input slot's view extent is read, each
    output's written (the layout is computed once per executor and slot tensors). A
    launch with the addresses and workspace of the handle's previous one gets that
    launch's tuple again (``aclOpExecutor.gm_last``; nobody changes it): a repeated
    launch builds no lists."""
    layout = _slot_layout(executor)
    last = executor.gm_last
    if last is not None and last[0] is layout and last[2] == workspace and last[1] == addrs:
        return last[3]
    reads, writes = [], []
    for lay, a in zip(layout, addrs):
        if lay is not None and a:
            (reads if lay[0] else writes).append((a + lay[1], lay[2]))
    out = reads, writes, ((workspace, executor.workspace_size) if workspace else None)
    executor.gm_last = (layout, list(addrs), workspace, out)
    return out


def _execute_checked(op_name: str, workspace, workspace_size, executor, stream) -> int:
    """Phase 2 with every check spelled out, in order; used when the fast path sees
    anything unusual. Returns the status (and launches if all is well)."""
    name = f"aclnn{op_name}"
    if executor is None:
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: executor is null")
    if not isinstance(executor, aclOpExecutor):
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor is not an aclOpExecutor "
                                              f"(got {type(executor).__name__})")
    plan = executor.plan
    if plan.op_name != op_name:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor was prepared by aclnn{plan.op_name}")
    if executor.state > RELEASED:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor was destroyed")
    if executor.state == RELEASED:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: executor already ran once and is not repeatable "
                                              "(call aclSetAclOpExecutorRepeatable after phase 1 to reuse it)")
    need = executor.workspace_size
    if need:
        if isinstance(workspace_size, bool) or not isinstance(workspace_size, Integral):
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: workspace size must be an int (bytes), got "
                                                  f"{type(workspace_size).__name__}")
        if workspace_size < need:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: workspace of {workspace_size} B is smaller than the "
                                                  f"{need} B phase 1 asked for")
        if not workspace:
            return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: workspace address is null but {need} B are needed")
    if workspace is not None and workspace != 0:
        if isinstance(workspace, bool) or not isinstance(workspace, Integral) or workspace < 0:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{name}: workspace address {workspace!r} is not a device address")
        workspace = int(workspace)
    addrs = executor.slot_addrs()
    if 0 in addrs:
        i = addrs.index(0)
        n_in = plan.n_inputs
        kind, j = ("input", i) if i < n_in else ("output", i - n_in)
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{name}: {kind} {j} has no device address")
    try:
        chip = launch.current_chip()
    except AclError as e:
        return _fail(ACLNN_ERR_RUNTIME_ERROR, f"{name}: {e}")
    if plan.chip is None:  # a plan that did not come through prepare(): check it now
        try:
            for k in plan.kernels:
                check_kernel(k.spec)
        except AclError as e:
            return _fail(ACLNN_ERR_RUNTIME_ERROR, f"{name}: {e}")
        _finish_plan(plan, chip)
    elif plan.chip is not chip and plan.chip != chip:
        return _fail(ACLNN_ERR_RUNTIME_ERROR, f"{name}: executor was prepared for chip {plan.chip.name} but the "
                                              f"device is {chip.name}; run phase 1 again")
    return _launch(name, executor, plan, addrs, workspace, stream)
