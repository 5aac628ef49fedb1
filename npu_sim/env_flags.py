"""On/off switches read from the environment (``NPU_SIM_FAST_PATH``, ``NPU_SIM_STREAM_RUNNER``,
``NPU_SIM_GC_PAUSE``): one reading rule for all of them, so that ``off`` means off.

Accepted, case-insensitive: ``1``/``on``/``true``/``yes`` and ``0``/``off``/``false``/``no``;
unset or empty gives the default. Any other value prints one warning line to stderr
naming the variable (once per variable and value) and gives the default.
"""
from __future__ import annotations

import os
import sys

_ON = frozenset({"1", "on", "true", "yes"})
_OFF = frozenset({"0", "off", "false", "no"})
_warned: set[tuple[str, str]] = set()


def env_flag(name: str, default: bool = True) -> bool:
    """``$name`` as a bool (module docstring for the accepted values). Never raises."""
    raw = os.environ.get(name, "").strip()
    low = raw.lower()
    if not low:
        return default
    if low in _ON:
        return True
    if low in _OFF:
        return False
    if (name, raw) not in _warned:
        _warned.add((name, raw))
        sys.stderr.write(f"npu-sim: warning: {name}={raw!r} is not one of 0/1/off/on/false/true/no/yes; "
                         f"using {'1' if default else '0'}\n")
    return default


__all__ = ["env_flag"]
