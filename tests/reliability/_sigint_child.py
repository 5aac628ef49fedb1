"""Child process for test_interrupt: queue N launches, report, synchronize; the parent
sends SIGINT during the synchronize. Then synchronize again and print the outcome."""
import sys
import time

import numpy as np

import opsnn
from acl_runtime import Session
from acl_runtime.profiler import kernels_completed

N = int(sys.argv[1])
with Session("tiny") as s:
    x = s.to_device(np.zeros(64, np.float32))
    one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
    for _ in range(N):
        opsnn.run_op(opsnn.aclnnInplaceAddsGetWorkspaceSize, opsnn.aclnnInplaceAdds, x, one, one)
    print("queued", flush=True)
    t0 = time.perf_counter()
    try:
        s.synchronize()
        print("first sync finished uninterrupted", flush=True)
    except KeyboardInterrupt:
        print("interrupted", kernels_completed(), flush=True)
    try:
        s.synchronize()
        status = "ok"
    except Exception as e:  # noqa: BLE001
        status = f"error {getattr(e, 'code', '')} {e}"
    print("second sync", status, flush=True)
    print("value", float(x.numpy()[0]) if status == "ok" else "n/a", flush=True)
    print("kernels", kernels_completed(), flush=True)
