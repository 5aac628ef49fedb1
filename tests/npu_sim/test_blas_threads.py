"""The BLAS thread limit (npu_sim/blas_threads.py): the direct OpenBLAS path sets what
threadpoolctl reports, the fallback is taken when another BLAS is mapped, and the
environment variable is honoured."""
from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import npu_sim.blas_threads as bt


def _blas_threads() -> list[int]:
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


@pytest.fixture
def fresh(monkeypatch):
    """A process state where the limit was not yet applied; the pool size is restored after."""
    before = _blas_threads()
    monkeypatch.setattr(bt, "_blas_limited", False)
    yield
    if before:
        threadpool_limits(limits=before[0], user_api="blas")


def test_direct_path_sets_what_threadpoolctl_reads(fresh, monkeypatch):
    setters = bt.openblas_setters()
    if setters is None or not setters:
        pytest.skip("numpy's BLAS here is not (only) OpenBLAS")
    threadpool_limits(limits=2, user_api="blas")
    monkeypatch.delenv(bt.BLAS_THREADS_ENV, raising=False)
    bt.limit_blas_threads()
    assert _blas_threads() and set(_blas_threads()) == {1}
    a = np.arange(64.0).reshape(8, 8)
    assert float((a @ a)[0, 0]) == float(sum(i * 8 * i for i in range(8)))   # BLAS still works


def test_env_count_and_once_only(fresh, monkeypatch):
    monkeypatch.setenv(bt.BLAS_THREADS_ENV, "2")
    threadpool_limits(limits=1, user_api="blas")
    bt.limit_blas_threads()
    assert set(_blas_threads()) <= {2}
    threadpool_limits(limits=1, user_api="blas")
    bt.limit_blas_threads()            # applied once per process: no second change
    assert set(_blas_threads()) <= {1}


def test_zero_leaves_blas_alone(fresh, monkeypatch):
    monkeypatch.setenv(bt.BLAS_THREADS_ENV, "0")
    threadpool_limits(limits=2, user_api="blas")
    bt.limit_blas_threads()
    assert set(_blas_threads()) <= {2}


def test_invalid_env_warns_and_uses_one(fresh, monkeypatch, capsys):
    monkeypatch.setenv(bt.BLAS_THREADS_ENV, "many")
    assert bt.blas_threads_wanted() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and bt.BLAS_THREADS_ENV in err


def test_count_above_the_cpus_warns_and_is_capped(fresh, monkeypatch, capsys):
    import os
    monkeypatch.setenv(bt.BLAS_THREADS_ENV, "100000")
    assert bt.blas_threads_wanted() == (os.cpu_count() or 1)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and bt.BLAS_THREADS_ENV in err and "100000" in err


def test_other_blas_or_no_maps_falls_back(fresh, monkeypatch, tmp_path):
    maps = tmp_path / "maps"
    maps.write_text("7f00-7f01 r-xp 00000000 08:01 1 /opt/intel/lib/libmkl_rt.so.2\n")
    assert bt.openblas_setters(str(maps)) is None
    assert bt.openblas_setters(str(tmp_path / "absent")) is None
    maps.write_text("7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/libc.so.6\n")
    assert bt.openblas_setters(str(maps)) == []
    calls = []
    monkeypatch.setattr(bt, "openblas_setters", lambda: None)
    import threadpoolctl
    monkeypatch.setattr(threadpoolctl, "threadpool_limits", lambda **kw: calls.append(kw))
    monkeypatch.delenv(bt.BLAS_THREADS_ENV, raising=False)
    bt.limit_blas_threads()
    assert calls == [{"limits": 1, "user_api": "blas"}]
