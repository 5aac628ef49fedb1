"""benchmarks.replay on light ResNet-50: a replay is one host launch per inference, the
same simulated device latency (the device was never host-bound), far less host time."""
from __future__ import annotations

from benchmarks import replay

from .test_memory import clean_acl  # noqa: F401  (fixture)


def test_replay_benchmark_two_inferences(clean_acl):  # noqa: F811
    eager, replayed, kernels = replay.run(2)
    assert eager["launches"] == kernels and replayed["launches"] == 1
    assert eager["host_ns"] > 10 * replayed["host_ns"]
    assert replayed["device_ns"] <= eager["device_ns"]
