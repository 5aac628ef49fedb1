"""The Pythonic op layer: one function per aclnn entry point, generated from its OpDef.

For people who just want to run an op::

    with Session(chip="tiny"):
        y = opsnn.softmax(np.random.rand(4, 8).astype(np.float32), dim=-1)   # -> DeviceArray
        print(y.numpy())

Each function is built from the op's :class:`~opsnn.base.op_def.OpDef` (its
``op_def.py``), never written by hand: the arguments are the INPUT and ATTRIBUTE
parameters in CANN prototype order, named in snake_case (:attr:`Param.py_name`:
``normalizedShape`` -> ``normalized_shape``, ``weightOptional`` -> ``weight``);
optional tensors default to None and attributes to CANN's defaults; ``stream`` is
keyword-only. A call

1. turns each tensor argument into an aclTensor (a numpy array or array-like is
   uploaded with :meth:`Session.to_device`; a :class:`DeviceArray` is used in place),
   an int sequence into an aclIntArray, a number into an aclScalar, a sequence of
   arrays into an aclTensorList;
2. asks the OpDef's shape inference for the required outputs and allocates them
   (optional outputs are not requested);
3. runs both phases through :func:`run_op` (phase 1 answered by the executor cache
   on a repeat call) on ``stream`` (None: the default stream), and returns the
   output DeviceArray (a tuple for several; the overwritten input for in-place ops).

Errors raise typed exceptions carrying the status ``.code``: :class:`OpError` for an
aclnn failure (161001/161002/561002 ...), the acl_runtime exceptions
(InvalidParamError, NotInitializedError without an open Session, OutOfMemoryError).
Asynchronous like the aclnn calls: ``DeviceArray.numpy()`` synchronizes.
"""
from __future__ import annotations

import importlib
import inspect
import keyword
import pkgutil
from typing import Any, Callable

import numpy as np

from acl_runtime import constants as C
from acl_runtime.acl_base import FROM_NUMPY
from acl_runtime.api import DeviceArray, InvalidParamError, NotInitializedError, active_session

from .pythonic import run_op

from .base.dtypes import aclDataType, from_numpy_dtype, to_numpy_dtype
from .base.op_def import _NO_DEFAULT, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, SCALAR, TENSOR, TENSOR_LIST, OpDef
from .base.tensor import aclCreateIntArray, aclCreateScalar
from .base.status import aclGetRecentErrMsg


def _session():
    s = active_session()
    if s is None or not s._live():
        raise NotInitializedError(C.ACL_ERROR_UNINITIALIZE, "the Pythonic ops need an open Session: "
                                                            "`with acl_runtime.Session(chip=...):`")
    return s


def _device_array(session, name: str, value) -> DeviceArray:
    if isinstance(value, DeviceArray):
        return value
    try:
        arr = np.asarray(value)
    except Exception as e:  # noqa: BLE001 - ragged lists and the like
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{name}: not array-like: {e}") from None
    # ml_dtypes' bfloat16 / float8 report kind "V"; they are tensor dtypes when npu-sim maps them
    if arr.dtype.kind in "OUS" or (arr.dtype.kind == "V" and arr.dtype not in FROM_NUMPY):
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{name}: dtype {arr.dtype} is not a tensor dtype")
    return session.to_device(arr)


def _scalar_dtype(value) -> aclDataType:
    if isinstance(value, (bool, np.bool_)):
        return aclDataType.ACL_BOOL
    if isinstance(value, (int, np.integer)):
        return aclDataType.ACL_INT64
    return aclDataType.ACL_FLOAT


def _convert(opdef: OpDef, p, value, session):
    """(aclnn argument, infer argument, DeviceArray or None) for one parameter."""
    where = f"{opdef.name}: {p.py_name}"
    if value is None:
        if p.optional or p.kind not in (TENSOR, TENSOR_LIST):
            return None, None, None
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{where} is required")
    if p.kind == TENSOR:
        d = _device_array(session, where, value)
        return d.tensor, (tuple(d.shape), from_numpy_dtype(d.dtype)), d
    if p.kind == TENSOR_LIST:
        from .transform.tensor_list import aclCreateTensorList  # base type, kept with its first user
        ds = [_device_array(session, f"{where}[{i}]", v) for i, v in enumerate(value)]
        return aclCreateTensorList([d.tensor for d in ds]), [(tuple(d.shape), from_numpy_dtype(d.dtype))
                                                             for d in ds], ds
    if p.kind == INT_ARRAY:
        arr = aclCreateIntArray(value)
        if arr is None:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{where}: {aclGetRecentErrMsg()}")
        return arr, [int(v) for v in value], None
    if p.kind == SCALAR:
        s = aclCreateScalar(value, _scalar_dtype(value))
        if s is None:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{where}: {aclGetRecentErrMsg()}")
        return s, value, None
    return value, value, None


def _call(opdef: OpDef, bound: dict[str, Any], stream) -> Any:
    session = _session()
    aclnn_args: dict[str, Any] = {}
    infer_args: dict[str, Any] = {}
    arrays: dict[str, Any] = {}
    for p in opdef.params:
        if p.role == OUTPUT:
            continue
        aclnn_args[p.name], infer_args[p.name], arrays[p.name] = _convert(opdef, p, bound[p.py_name], session)
    try:
        shapes = list(opdef.infer(**infer_args))
    except (TypeError, ValueError, IndexError, KeyError, ArithmeticError) as e:
        raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM,
                                f"{opdef.name}: cannot infer the output shapes from these arguments: {e}") from None
    outs = []
    # optional outputs are allocated only when shape inference gives one shape per output
    # (e.g. BatchNorm's saveMean / saveInvstd with training=True)
    fill_optional = len(shapes) == sum(1 for p in opdef.params if p.role == OUTPUT)
    for p in opdef.params:
        if p.role != OUTPUT:
            continue
        if p.optional and not fill_optional:
            aclnn_args[p.name] = None
            continue
        if not shapes:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{opdef.name}: shape inference gave no shape "
                                                               f"for output {p.name}")
        shape, dtype = shapes.pop(0)
        d = session.empty(tuple(int(x) for x in shape), np.dtype(to_numpy_dtype(dtype)))
        aclnn_args[p.name] = d.tensor
        outs.append(d)
    run_op(opdef.get_workspace_size, opdef.launch, *(aclnn_args[p.name] for p in opdef.params), stream=stream)
    if opdef.inplace:
        return arrays[opdef.inplace]
    return outs[0] if len(outs) == 1 else tuple(outs)


def make_function(opdef: OpDef) -> Callable:
    """The Pythonic function of ``opdef`` (see the module doc)."""
    params = []
    kw_only = False   # once one parameter must be keyword-only, every later one is too
    for p in opdef.params:
        if p.role == OUTPUT:
            continue
        name = p.py_name + ("_" if keyword.iskeyword(p.py_name) else "")
        if p.has_default:
            default = None if p.default is _NO_DEFAULT else p.default
            kind = inspect.Parameter.KEYWORD_ONLY if kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            params.append(inspect.Parameter(name, kind, default=default))
        else:
            # a required parameter after a defaulted one cannot be positional
            kw_only = kw_only or any(q.default is not inspect.Parameter.empty for q in params)
            kind = inspect.Parameter.KEYWORD_ONLY if kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            params.append(inspect.Parameter(name, kind))
    params.append(inspect.Parameter("stream", inspect.Parameter.KEYWORD_ONLY, default=None))
    sig = inspect.Signature(params)
    py_names = {p.py_name + ("_" if keyword.iskeyword(p.py_name) else ""): p.py_name
                for p in opdef.params if p.role != OUTPUT}

    def fn(*args, **kwargs):
        try:
            b = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise InvalidParamError(C.ACL_ERROR_INVALID_PARAM, f"{opdef.name}: {e}") from None
        b.apply_defaults()
        bound = {py_names[k]: v for k, v in b.arguments.items() if k != "stream"}
        return _call(opdef, bound, b.arguments["stream"])

    fn.__name__ = fn.__qualname__ = opdef.name
    fn.__signature__ = sig
    ins = ", ".join(p.name for p in opdef.params if p.role == INPUT)
    attrs = ", ".join(p.name for p in opdef.params if p.role == ATTRIBUTE)
    fn.__doc__ = (f"{opdef.doc or opdef.op_type} (aclnn{opdef.op_type}, both phases).\n\n"
                  f"CANN parameters: inputs {ins or '-'}; attributes {attrs or '-'}. Tensors: numpy arrays or "
                  "DeviceArrays. Returns the output DeviceArray(s). Raises OpError (aclnn status) or the "
                  "acl_runtime exceptions; needs an open Session. Generated from the op's OpDef "
                  f"({opdef.get_workspace_size.__module__.rsplit('.', 1)[0]}.op_def).")
    fn.op_def = opdef
    return fn


def all_op_defs() -> list[OpDef]:
    """Every OpDef in the package: the ``OP_DEFS`` of each ``op_def`` module under
    ``opsnn`` (found by walking the package, so a new op needs no registration here)."""
    import opsnn
    defs: list[OpDef] = []
    for info in pkgutil.walk_packages(opsnn.__path__, "opsnn."):
        if info.name.rsplit(".", 1)[-1] == "op_def":
            defs.extend(getattr(importlib.import_module(info.name), "OP_DEFS", ()))
    return defs


FUNCTIONS: dict[str, Callable] = {d.name: make_function(d) for d in all_op_defs()}
globals().update(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
