"""aclTensor, aclScalar, aclIntArray and their create/destroy calls.

Metadata follows opbase (acl_meta.h): the view (shape, strides in elements, offset
in elements), the storage (shape, format) and the device address ``tensor_data``.
A tensor holds an address but the executor built from it does not: phase 2 reads
the address again (or the one set by aclSetInputTensorAddr).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dtypes import aclDataType, aclFormat, dtype_name, to_numpy_dtype
from .status import ACLNN_SUCCESS, ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, LAST_ERROR


def _contiguous_strides(shape) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(int(d), 1)
    return tuple(reversed(strides))


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
        return int(np.prod(self.view_shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self.np_dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize

    @property
    def is_contiguous(self) -> bool:
        return self.view_strides == _contiguous_strides(self.view_shape)

    def byte_strides(self) -> tuple[int, ...]:
        return tuple(s * self.itemsize for s in self.view_strides)

    def __repr__(self) -> str:
        return (f"aclTensor(shape={self.view_shape}, dtype={self.dtype_name}, strides={self.view_strides}, "
                f"offset={self.view_offset}, format={self.storage_format.name}, addr={self.tensor_data:#x})")


def _fail(code: int, msg: str):
    LAST_ERROR.message = f"[{code}] {msg}"
    return None


def aclCreateTensor(view_dims, data_type, stride, offset, format, storage_dims, tensor_data):  # noqa: N802,A002
    """aclCreateTensor(viewDims, dataType, stride, offset, format, storageDims, tensorData)
    -> aclTensor, or None on bad metadata (message in ``aclGetRecentErrMsg()``).

    Strides and offset are in elements and non-negative; ``tensor_data`` is a device
    address (32 B aligned) or 0 for a tensor bound later. The view, with its strides
    and offset, must fit inside ``storage_dims``.
    """
    try:
        if view_dims is None or storage_dims is None:
            return _fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: viewDims and storageDims must not be null")
        view = [int(d) for d in view_dims]
        storage = [int(d) for d in storage_dims]
        strides = _contiguous_strides(view) if stride is None else tuple(int(s) for s in stride)
        if any(d < 0 for d in view) or any(d < 0 for d in storage):
            return _fail(ACLNN_ERR_PARAM_INVALID, f"aclCreateTensor: negative dim in view {view} / storage {storage}")
        if len(strides) != len(view):
            return _fail(ACLNN_ERR_PARAM_INVALID,
                         f"aclCreateTensor: {len(strides)} strides for a {len(view)}-D view")
        if any(s < 0 for s in strides) or int(offset) < 0:
            return _fail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: strides and offset must be non-negative")
        if int(tensor_data) % 32:
            return _fail(ACLNN_ERR_PARAM_INVALID,
                         f"aclCreateTensor: device address {int(tensor_data):#x} is not 32-byte aligned")
        t = aclTensor(view, data_type, strides, offset, format, storage, tensor_data)
        if all(view):
            extent = int(offset) + sum((d - 1) * s for d, s in zip(view, strides)) + 1
            if extent > int(np.prod(storage, dtype=np.int64)):
                return _fail(ACLNN_ERR_PARAM_INVALID,
                             f"aclCreateTensor: view {view} with strides {list(strides)} and offset {offset} "
                             f"reaches element {extent - 1}, beyond storage {storage}")
        return t
    except (TypeError, ValueError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"aclCreateTensor: {e}")


def aclDestroyTensor(tensor) -> int:  # noqa: N802
    """aclDestroyTensor -> status. 161001 for None."""
    if tensor is None:
        _fail(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyTensor: tensor is null")
        return ACLNN_ERR_PARAM_NULLPTR
    tensor.destroyed = True
    return ACLNN_SUCCESS


@dataclass
class aclScalar:  # noqa: N801
    """A host scalar with an aclDataType."""

    value: float | int | bool
    data_type: aclDataType

    def to_python(self):
        return to_numpy_dtype(self.data_type).type(self.value).item()


def aclCreateScalar(value, data_type) -> aclScalar | None:  # noqa: N802
    """aclCreateScalar(value, dataType) -> aclScalar (pyACL passes the value itself)."""
    try:
        return aclScalar(value, aclDataType(data_type))
    except (TypeError, ValueError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"aclCreateScalar: {e}")


def aclDestroyScalar(scalar) -> int:  # noqa: N802
    return ACLNN_SUCCESS if scalar is not None else ACLNN_ERR_PARAM_NULLPTR


class aclIntArray(tuple):  # noqa: N801
    """An immutable int array (aclIntArray)."""


def aclCreateIntArray(values) -> aclIntArray | None:  # noqa: N802
    """aclCreateIntArray(value, size) -> aclIntArray; pyACL style takes a sequence."""
    try:
        return aclIntArray(int(v) for v in values)
    except (TypeError, ValueError) as e:
        return _fail(ACLNN_ERR_PARAM_INVALID, f"aclCreateIntArray: {e}")


def aclDestroyIntArray(array) -> int:  # noqa: N802
    return ACLNN_SUCCESS if array is not None else ACLNN_ERR_PARAM_NULLPTR
