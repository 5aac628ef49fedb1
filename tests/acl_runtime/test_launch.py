"""acl_runtime.launch: the small interface opsnn reaches the runtime through."""
from __future__ import annotations

import pytest

import opsnn
from acl_runtime import acl, launch
from acl_runtime.runtime import runtime
from npu_sim import BlockProgram, CoreType, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.program import Buffer

from .conftest import vector_launch


def test_chip_without_and_with_a_device(clean):
    assert launch.device_chip() is None
    with pytest.raises(launch.AclError) as e:
        launch.current_chip()
    assert e.value.code == 100001
    assert acl.init(chip="tiny") == 0
    with pytest.raises(launch.AclError) as e:
        launch.current_chip()
    assert e.value.code == 100004
    assert acl.rt.set_device(0) == 0
    assert launch.current_chip() is launch.device_chip() is runtime().chip
    # phase 1 turns the missing device into 361001, with the runtime's reason
    acl.finalize()
    assert acl.init(chip="tiny") == 0
    ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(None, None)
    assert ret == 361001 and "set_device" in opsnn.aclGetRecentErrMsg()


def test_deterministic_flag(npu):
    assert launch.deterministic() == 0
    assert acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 1) == 0
    assert launch.deterministic() == 1


def test_check_kernel_refuses_what_the_chip_cannot_hold(npu):
    launch.check_kernel(vector_launch(10).spec)
    stage = Stage(Pipe.VECTOR, vector_bytes=256)
    spec = KernelSpec("TooBig", CoreType.AIV, (BlockProgram((TileSpec((stage,)),)),), buffers={Buffer.UB: 1 << 40})
    with pytest.raises(launch.AclError) as e:
        launch.check_kernel(spec)
    assert e.value.code == 100000


def test_charge_prepare_and_launch_prepared_charge_the_host(npu):
    clock = runtime().clock
    t0 = clock.now_ns
    launch.charge_prepare("aclnnProbeGetWorkspaceSize", 1234.0, {"probe": 1})
    assert clock.now_ns - t0 == 1234.0
    with pytest.raises(launch.AclError):
        launch.launch_prepared(424242, [], [], "aclnnProbe", [], 0)   # no such stream
    assert runtime().pending_launches() == 0
