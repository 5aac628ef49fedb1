"""npu-sim hardware model: a discrete-event (SimPy) model of an Ascend-style NPU.

Knows nothing about operators: kernels arrive as :class:`~npu_sim.program.KernelLaunch`
data. Simulated time is in ns throughout.
"""
from .chips import DEFAULT_CHIP, PRESETS, Architecture, ChipConfig, get_chip
from .device import Device, HwEvent, KernelConfigError, Stream
from .device_memory import DeviceMemory, DeviceMemoryError
from .program import (Buffer, BlockProgram, CoreType, GmRange, KernelLaunch, KernelSpec, MixBlockProgram, Pipe, Stage,
                      TileSpec)
from .trace import Counter, Span, TraceRecorder

__all__ = [
    "DEFAULT_CHIP", "PRESETS", "Architecture", "ChipConfig", "get_chip", "Device", "HwEvent",
    "KernelConfigError", "Stream", "DeviceMemory", "DeviceMemoryError", "Buffer", "BlockProgram",
    "CoreType", "GmRange", "KernelLaunch", "KernelSpec", "MixBlockProgram", "Pipe", "Stage", "TileSpec", "Counter", "Span", "TraceRecorder",
]
