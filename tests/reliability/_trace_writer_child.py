"""Child process for test_atomic_writes: write a trace to argv[1] through
Session.write_trace, with the trace writer slowed down (it writes in small chunks,
sleeping between them) so that a signal or a second writer lands mid-write.
argv[2] is a tag stored in the trace; argv[3] the pause per chunk (s)."""
import json
import sys
import time

import numpy as np

import acl_runtime.trace_writer as tw
import traces.chrome_trace as ct
from acl_runtime import Session

path, tag, pause = sys.argv[1], sys.argv[2], float(sys.argv[3])


def slow_write(source, out_path, metadata=None, validate=True, gzip_out=None):
    text = json.dumps(ct.to_chrome_trace(source, metadata=metadata, validate=validate))
    with open(out_path, "w") as f:
        for i in range(0, len(text), 4096):
            f.write(text[i:i + 4096])
            f.flush()
            if i == 0:
                print("writing", flush=True)
            time.sleep(pause)
    return out_path


ct.write_chrome_trace = slow_write
tw.write_trace_fast = slow_write   # the profiler's writer (acl_runtime.trace_writer)
with Session("tiny") as s:
    for _ in range(20):
        s.to_device(np.ones(1024, np.float32))
    s.write_trace(path, {"tag": tag, "pad": "x" * (40000 + 7000 * len(tag))})   # lengths differ per writer
print("done", flush=True)
