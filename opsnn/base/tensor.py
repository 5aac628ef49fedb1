"""aclTensor, aclScalar, aclIntArray and their create/destroy calls.

Metadata follows opbase (acl_meta.h): the view (shape, strides in elements, offset
in elements), the storage (shape, format) and the device address ``tensor_data``.
A tensor holds an address but the executor built from it does not: phase 2 reads
the address again (or the one set by aclSetInputTensorAddr).

(Over 300 lines on purpose: aclCreateTensor's checked path and its fast path for the
common call stay side by side, so a change to one check is made next to the other.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .dtypes import TO_NUMPY, aclDataType, aclFormat, dtype_name, to_numpy_dtype
from .status import ACLNN_SUCCESS, ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, LAST_ERROR


def contiguous_strides(shape) -> tuple[int, ...]:
    """Row-major strides in elements for ``shape`` (size-0/1 dims count as 1)."""
    n = len(shape)
    strides = [1] * n
    acc = 1
    for i in range(n - 1, -1, -1):
        strides[i] = acc
        d = int(shape[i])
        if d > 1:
            acc *= d
    return tuple(strides)


class aclTensor:  # noqa: N801 (CANN spelling)
    """Tensor metadata plus a device address. Attributes: ``view_shape``,
    ``view_strides`` (elements), ``view_offset`` (elements), ``storage_format``,
    ``storage_shape``, ``data_type`` (aclDataType), ``tensor_data`` (device address)."""

    __slots__ = ("view_shape", "data_type", "view_strides", "view_offset", "storage_format", "storage_shape",
                 "tensor_data", "destroyed", "np_dtype", "__weakref__")

    def __init__(self, view_shape, data_type, view_strides, view_offset, storage_format, storage_shape, tensor_data):
        self.view_shape = tuple(int(d) for d in view_shape)
        self.data_type = aclDataType(data_type)
        self.view_strides = tuple(int(s) for s in view_strides)
        self.view_offset = int(view_offset)
        self.storage_format = aclFormat(storage_format)
        self.storage_shape = tuple(int(d) for d in storage_shape)
        self.tensor_data = int(tensor_data)
        self.destroyed = False
        self.np_dtype = to_numpy_dtype(self.data_type)

    @property
    def dtype_name(self) -> str:
        return dtype_name(self.data_type)

    @property
    def numel(self) -> int:
        return math.prod(self.view_shape)   # plain ints (aclCreateTensor bounds the count by int64)

    @property
    def itemsize(self) -> int:
        return self.np_dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize

    @property
    def is_contiguous(self) -> bool:
        return self.view_strides == contiguous_strides(self.view_shape)

    def byte_strides(self) -> tuple[int, ...]:
        return tuple(s * self.itemsize for s in self.view_strides)

    def __repr__(self) -> str:
        return (f"aclTensor(shape={self.view_shape}, dtype={self.dtype_name}, strides={self.view_strides}, "
                f"offset={self.view_offset}, format={self.storage_format.name}, addr={self.tensor_data:#x})")


def _fail(code: int, msg: str):
    LAST_ERROR.message = f"[{code}] {msg}"
    return None


class _BadArg(Exception):
    """A malformed argument of a create call (becomes 161002 with this message)."""


def _as_int(api: str, name: str, v) -> int:
    """``v`` as a Python int: int and numpy integers only (bool, float, str are
    refused rather than truncated or coerced)."""
    if v.__class__ is int:   # the common case (bool is not ``int`` by class)
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise _BadArg(f"{api}: {name} {v!r} is not an int ({type(v).__name__})")
    return int(v)


def _as_ints(api: str, name: str, seq) -> list[int]:
    cls = seq.__class__
    if cls is tuple or cls is list:   # the common case: plain ints (bool is not ``int`` by class)
        out = list(seq)
        if all(v.__class__ is int for v in out):
            return out
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
        raise _BadArg(f"{api}: {name} must be a sequence of ints, got {type(seq).__name__}")
    return [_as_int(api, f"{name} element", v) for v in seq]


#: False: every :func:`aclCreateTensor` takes the checked path (tests/perf/test_prep_create_tensor.py)
FAST_CREATE = True

#: the largest element count an aclTensor's int64 dims can describe (CANN's aclCreateTensor
#: takes int64_t viewDims/storageDims)
_MAX_ELEMENTS = 2**63 - 1

#: aclDataType / aclFormat members by value (a dict lookup instead of an Enum call per tensor)
_DATA_TYPES = {int(v): v for v in aclDataType}
_FORMATS = {int(v): v for v in aclFormat}


def _new_tensor(view: list, dt: int, strides: tuple, offset: int, fmt: int, storage: list, addr: int) -> aclTensor:
    """An aclTensor from metadata :func:`aclCreateTensor` has already checked (plain
    ints, known dtype and format): the attributes ``aclTensor.__init__`` would set,
    without converting each value again. ValueError when the dtype has no numpy dtype."""
    t = object.__new__(aclTensor)
    t.view_shape = tuple(view)
    t.data_type = dtype = _DATA_TYPES[dt]
    t.view_strides = tuple(strides)
    t.view_offset = offset
    t.storage_format = _FORMATS[fmt]
    t.storage_shape = tuple(storage)
    t.tensor_data = addr
    t.destroyed = False
    np_dtype = TO_NUMPY.get(dtype)
    t.np_dtype = np_dtype if np_dtype is not None else to_numpy_dtype(dtype)   # (raises ValueError)
    return t


_INT, _DT_CLASSES, _FMT_CLASSES = frozenset({int}), frozenset({int, aclDataType}), frozenset({int, aclFormat})


def _fast_tensor(view_dims, data_type, stride, offset, fmt_code, storage_dims, addr):
    """:func:`aclCreateTensor` for the common call that passes every check (tuples or lists
    of plain ints, stride None or plain ints, int offset and address, int or enum codes):
    the same aclTensor. None for anything else (a bool, float or numpy integer anywhere
    included), which the checked path then handles and refuses with its own message."""
    vc, sc = view_dims.__class__, storage_dims.__class__
    if ((vc is not tuple and vc is not list) or (sc is not tuple and sc is not list) or offset.__class__ is not int
            or addr.__class__ is not int or data_type.__class__ not in _DT_CLASSES
            or fmt_code.__class__ not in _FMT_CLASSES or not {*map(type, view_dims)} <= _INT
            or not {*map(type, storage_dims)} <= _INT):
        return None
    if stride is None:
        strides = contiguous_strides(view_dims)
    elif (stride.__class__ is not tuple and stride.__class__ is not list) or not {*map(type, stride)} <= _INT:
        return None
    else:
        strides = tuple(stride)
        if len(strides) != len(view_dims) or (strides and min(strides) < 0):
            return None
    if (data_type not in _DATA_TYPES or fmt_code not in _FORMATS or offset < 0 or addr < 0 or addr % 32
            or (view_dims and min(view_dims) < 0) or (storage_dims and min(storage_dims) < 0)):
        return None
    n_storage, n_view = math.prod(storage_dims), math.prod(view_dims)
    if n_storage > _MAX_ELEMENTS or n_view > _MAX_ELEMENTS or (
            n_view and offset + sum([(d - 1) * s for d, s in zip(view_dims, strides)]) >= n_storage):
        return None
    return _new_tensor(view_dims, data_type, strides, offset, fmt_code, storage_dims, addr)


def aclCreateTensor(view_dims, data_type, stride, offset, format, storage_dims, tensor_data):  # noqa: N802,A002
    """aclCreateTensor(viewDims, dataType, stride, offset, format, storageDims, tensorData)
    -> aclTensor, or None on bad metadata (message in ``aclGetRecentErrMsg()``).

    Strides and offset are in elements and non-negative; ``tensor_data`` is a device
    address (bytes; 32 B aligned, non-negative) or 0 for a tensor bound later. The
    view, with its strides and offset, must fit inside ``storage_dims``. Every number
    must be an int or a numpy integer (a float or bool is refused, not truncated);
    ``stride`` None means contiguous. Errors: 161001 for null dims, 161002 otherwise.
    """
    api = "aclCreateTensor"
    try:
        if FAST_CREATE and view_dims is not None and storage_dims is not None:
            t = _fast_tensor(view_dims, data_type, stride, offset, format, storage_dims, tensor_data)
            if t is not None:
                return t
        if view_dims is None or storage_dims is None:
            return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{api}: viewDims and storageDims must not be null")
        view = _as_ints(api, "viewDims", view_dims)
        storage = _as_ints(api, "storageDims", storage_dims)
        strides = contiguous_strides(view) if stride is None else tuple(_as_ints(api, "stride", stride))
        offset = _as_int(api, "offset", offset)
        addr = _as_int(api, "tensorData", tensor_data)
        dt = _as_int(api, "dataType", data_type)
        fmt = _as_int(api, "format", format)
        if dt not in _DATA_TYPES:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: dataType {dt} is not an aclDataType")
        if fmt not in _FORMATS:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: format {fmt} is not an aclFormat")
        if (view and min(view) < 0) or (storage and min(storage) < 0):
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: negative dim in view {view} / storage {storage}")
        if len(strides) != len(view):
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: {len(strides)} strides for a {len(view)}-D view")
        if (strides and min(strides) < 0) or offset < 0:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: strides and offset must be non-negative")
        if addr < 0:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: tensorData {addr} is negative")
        if addr % 32:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: device address {addr:#x} is not 32-byte aligned")
        n_storage = math.prod(storage)
        if n_storage > _MAX_ELEMENTS or math.prod(view) > _MAX_ELEMENTS:
            return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: view {view} / storage {storage} holds more than "
                                                  f"2^63 - 1 elements (aclTensor sizes are int64)")
        if all(view):
            extent = offset + sum([(d - 1) * s for d, s in zip(view, strides)]) + 1
            if extent > n_storage:
                return _fail(ACLNN_ERR_PARAM_INVALID,
                             f"{api}: view {view} with strides {list(strides)} and offset {offset} "
                             f"reaches element {extent - 1}, beyond storage {storage}")
        return _new_tensor(view, dt, strides, offset, fmt, storage, addr)
    except _BadArg as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, str(e))
    except (TypeError, ValueError, OverflowError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: {e}")


def _destroy(api: str, kind: type, obj) -> int:
    """Shared destroy check: 161001 for None, 161002 for an object of another type."""
    if obj is None:
        _fail(ACLNN_ERR_PARAM_NULLPTR, f"{api}: argument is null")
        return ACLNN_ERR_PARAM_NULLPTR
    if not isinstance(obj, kind):
        _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: expected an {kind.__name__}, got {type(obj).__name__} {obj!r:.60}")
        return ACLNN_ERR_PARAM_INVALID
    return ACLNN_SUCCESS


def aclDestroyTensor(tensor) -> int:  # noqa: N802
    """aclDestroyTensor -> status: 0; 161001 for None; 161002 for anything not an aclTensor."""
    ret = _destroy("aclDestroyTensor", aclTensor, tensor)
    if ret == ACLNN_SUCCESS:
        tensor.destroyed = True
    return ret


@dataclass
class aclScalar:  # noqa: N801
    """A host scalar with an aclDataType. ``value`` is the Python number given to
    :func:`aclCreateScalar`, which checked that ``data_type`` can hold it."""

    value: float | int | bool
    data_type: aclDataType

    def to_python(self):
        """The value converted to ``data_type`` (float32 overflow gives inf, as a C cast)."""
        with np.errstate(over="ignore"):
            return to_numpy_dtype(self.data_type).type(self.value).item()


def _check_scalar_value(api: str, value, dt: aclDataType) -> None:
    """Raise _BadArg unless ``dt`` can hold ``value`` (a bool, int, float or numpy
    number): integer dtypes need an integral value in range; BOOL takes any number;
    float dtypes take any real number (overflow rounds to inf)."""
    if isinstance(value, (bool, np.bool_, int, np.integer, float, np.floating)):
        npdt = to_numpy_dtype(dt)
        if npdt.kind in "iu":
            f = float(value) if isinstance(value, (float, np.floating)) else None
            if f is not None and not (np.isfinite(f) and f == int(f)):
                raise _BadArg(f"{api}: value {value!r} is not convertible to {dt.name} (not an integer)")
            iv = int(value)
            info = np.iinfo(npdt)
            if not info.min <= iv <= info.max:
                raise _BadArg(f"{api}: value {value!r} is out of range for {dt.name} [{info.min}, {info.max}]")
        return
    raise _BadArg(f"{api}: value {value!r:.40} ({type(value).__name__}) is not convertible to {dt.name}: "
                  "give a bool, int or float")


def aclCreateScalar(value, data_type) -> aclScalar | None:  # noqa: N802
    """aclCreateScalar(value, dataType) -> aclScalar (pyACL passes the value itself),
    or None: 161001 for a None value; 161002 when ``data_type`` is not an aclDataType
    or cannot hold ``value`` (a str, a fraction or NaN for an integer dtype, an
    integer out of the dtype's range). Checked here, not when an op reads it. A 0-d
    numeric numpy array counts as its number."""
    api = "aclCreateScalar"
    if value is None:
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{api}: value is null")
    try:
        dt = aclDataType(_as_int(api, "dataType", data_type))
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "biuf":
            value = value.item()  # a 0-d numpy array holds one number
        _check_scalar_value(api, value, dt)
        return aclScalar(value, dt)
    except _BadArg as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, str(e))
    except (TypeError, ValueError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: {e}")


def aclDestroyScalar(scalar) -> int:  # noqa: N802
    """aclDestroyScalar -> status: 0; 161001 for None; 161002 for anything not an aclScalar."""
    return _destroy("aclDestroyScalar", aclScalar, scalar)


class aclIntArray(tuple):  # noqa: N801
    """An immutable int array (aclIntArray)."""


def aclCreateIntArray(values) -> aclIntArray | None:  # noqa: N802
    """aclCreateIntArray(value, size) -> aclIntArray; pyACL style takes a sequence of
    ints (numpy integers included). None: 161001 for None, 161002 for a non-sequence
    or an element that is not an int (floats and bools are refused, not truncated)."""
    api = "aclCreateIntArray"
    if values is None:
        return _fail(ACLNN_ERR_PARAM_NULLPTR, f"{api}: value is null")
    try:
        return aclIntArray(_as_ints(api, "value", values))
    except _BadArg as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, str(e))
    except (TypeError, ValueError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"{api}: {e}")


def aclDestroyIntArray(array) -> int:  # noqa: N802
    """aclDestroyIntArray -> status: 0; 161001 for None; 161002 for anything not an aclIntArray."""
    return _destroy("aclDestroyIntArray", aclIntArray, array)
