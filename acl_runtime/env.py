"""Environment variables, read with a check: a wrong value gets one line naming it.

Every ``NPU_SIM_*`` variable the packages read goes through these helpers. A value
that does not parse (``NPU_SIM_EXECUTOR_CACHE_SIZE=abc``), is out of range
(``NPU_SIM_EXECUTOR_POOL_SIZE=-5``) or is not one of the known words
(``NPU_SIM_EXECUTOR_CACHE=maybe``) is never used silently and never raises at
import time: one line on stderr names the variable, the value, what is allowed
and the default used instead.

The variables: ``NPU_SIM_CHIP`` (chip preset or config path; checked at aclInit,
``acl_runtime.context.resolve_chip``, whose error names it),
``NPU_SIM_EXECUTOR_CACHE`` (on/off/verify), ``NPU_SIM_EXECUTOR_CACHE_SIZE`` (>= 1
plans), ``NPU_SIM_EXECUTOR_POOL_SIZE`` (>= 0 handles).
"""
from __future__ import annotations

import os
import sys

_warned: set[tuple[str, str]] = set()


def _warn(name: str, value: str, allowed: str, default) -> None:
    if (name, value) in _warned:
        return
    _warned.add((name, value))
    sys.stderr.write(f"npu-sim: warning: {name}={value!r} is not valid ({allowed}); using {default!r}\n")


def env_int(name: str, default: int, min_value: int = 0) -> int:
    """``$name`` as an int >= ``min_value``; ``default`` (with one warning line) when it
    is set but not such an int; ``default`` when unset or empty."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        v = int(raw.strip(), 10)
    except ValueError:
        v = None
    if v is None or v < min_value:
        _warn(name, raw, f"an integer >= {min_value}", default)
        return default
    return v


def env_choice(name: str, default: str, choices: dict[str, str]) -> str:
    """``$name`` (case and surrounding spaces ignored) mapped through ``choices``
    (word -> meaning); ``default`` (with one warning line) for a word not in it."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    word = raw.strip().lower()
    if word not in choices:
        _warn(name, raw, "one of " + ", ".join(sorted(choices)), default)
        return default
    return choices[word]


__all__ = ["env_int", "env_choice"]
