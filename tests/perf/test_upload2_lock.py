"""The runtime lock's wrappers (``acl_runtime.lock.serialized`` and the binding's
``acl_runtime.acl._wrap``) call the lock's acquire/release directly: the wrapped call
holds the lock, re-enters it, and leaves it free after a return and after a raise (a
second thread can take it then), and the binding still turns errors into statuses."""
from __future__ import annotations

import threading

import pytest

from acl_runtime import constants as C
from acl_runtime.acl._wrap import status_only, value_status
from acl_runtime.errors import AclError
from acl_runtime.lock import RUNTIME_LOCK, serialized


def _free_for_other_thread() -> bool:
    got = []
    t = threading.Thread(target=lambda: got.append(RUNTIME_LOCK.acquire(timeout=2) and (RUNTIME_LOCK.release() or True)))
    t.start()
    t.join()
    return got == [True]


def test_serialized_holds_reenters_and_releases():
    @serialized
    def inner(x):
        assert RUNTIME_LOCK._is_owned()
        return x + 1

    @serialized
    def outer(x, *, k=0):
        return inner(x) + k

    @serialized
    def bad():
        raise ValueError("no")

    assert outer(1, k=2) == 4 and outer.__name__ == "outer"
    assert _free_for_other_thread()
    with pytest.raises(ValueError):
        bad()
    assert _free_for_other_thread()


def test_binding_wrappers_status_and_release():
    @status_only
    def ok():
        assert RUNTIME_LOCK._is_owned()

    @status_only
    def fails():
        raise AclError(C.ACL_ERROR_INVALID_PARAM, "bad")

    @value_status(None)
    def val(x):
        return x * 2

    @value_status(-1)
    def val_bad():
        raise RuntimeError("x")

    assert ok() == C.ACL_SUCCESS and fails() == C.ACL_ERROR_INVALID_PARAM
    assert val(3) == (6, C.ACL_SUCCESS) and val_bad() == (-1, C.ACL_ERROR_INTERNAL_ERROR)
    assert _free_for_other_thread()
