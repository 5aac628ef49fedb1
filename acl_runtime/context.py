"""The ACL context: aclInit / aclFinalize state, the current device, system parameters
and the host clock.

One process-wide context, as in ACL (``acl_runtime.runtime()`` holds it). It knows
which chip ``acl.init`` chose, opens the simulated device at ``aclrtSetDevice``
(giving each device opened its own address space), and keeps the
``aclrtSetSysParamOpt`` values. Methods raise :class:`acl_runtime.errors.AclError`.
"""
from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from npu_sim import DEFAULT_CHIP, Device, get_chip
from npu_sim.device_memory import DEVICE_BASE_ADDR

from . import constants as C
from .errors import AclError, as_int
from .host_clock import HostClock

#: environment variable naming the chip preset (or config path) that ``acl.init()``
#: and ``Session()`` use when no chip is given
CHIP_ENV = "NPU_SIM_CHIP"

#: distance between the address spaces of successive devices (bytes). Each device the
#: runtime opens gets base ``DEVICE_BASE_ADDR + generation * ADDRESS_SPACE_STRIDE``, so a
#: pointer kept from a finalised session lies outside every live allocation and is
#: reported as out of bounds instead of silently reading the new session's buffer.
#: Chip configs cap HBM at 2**42 bytes, so spaces never overlap; generations wrap
#: after 2**19 devices, keeping addresses below 2**64.
ADDRESS_SPACE_STRIDE = 2 ** 44
_GENERATIONS = 2 ** 19

#: handle of the first default context (aclrtContext); the device opened n-th gets
#: ``CONTEXT_HANDLE_BASE + n``, so a handle kept across aclFinalize is refused
CONTEXT_HANDLE_BASE = 0x7C000000

_BOUND = threading.local()   # per host thread: the context handle it bound (aclrtSetCurrentContext)


def resolve_chip(chip: Any = None):
    """The ChipConfig for ``chip`` (preset name, .json/.yaml path, or ChipConfig); None
    means ``$NPU_SIM_CHIP`` if set, else the default preset. Raises AclError(100000)
    with a readable message for anything that does not give a valid config (unknown
    name, wrong type, unreadable file, YAML/JSON syntax, pydantic validation)."""
    source = "chip"
    if chip is None:
        env = os.environ.get(CHIP_ENV)
        if env:
            chip, source = env, f"{CHIP_ENV}={env!r}"
        else:
            chip = DEFAULT_CHIP
    try:
        config = get_chip(chip)
        if chip is config:   # built in code: model_copy(update=...) skips validation, so check it here
            type(config).model_validate(config.model_dump())
        return config
    except KeyError as e:
        msg = str(e.args[0]) if e.args else str(e)
    except OSError as e:
        msg = f"cannot read the config file: {e}"
    except (TypeError, ValueError) as e:   # pydantic.ValidationError is a ValueError
        msg = str(e)
    raise AclError(C.ACL_ERROR_INVALID_PARAM, f"{source}: {msg}" if source != "chip" else f"chip config: {msg}")


class Context:
    """Initialised flag, the chip chosen at init, the current device (``device``,
    ``device_id``, ``default_stream``), the host clock (``clock``, ns) and the system
    parameters (``sys_params``: aclSysParamOpt -> value; ``deterministic`` mirrors
    ACL_OPT_DETERMINISTIC). :meth:`reset` (aclFinalize) forgets all of it except how
    many devices were opened (address spaces)."""

    def __init__(self) -> None:
        self._generation = 0    #: devices opened so far (address spaces)
        self.reset()

    def reset(self) -> None:
        """Back to the uninitialised state (keeps the device generation count)."""
        self.initialized = False
        self.device: Device | None = None
        self.device_id: int | None = None
        self.chip_config = None      #: the ChipConfig chosen at init (validated there)
        self.chip_name = os.environ.get(CHIP_ENV) or DEFAULT_CHIP
        self.backed = True
        self.clock = HostClock()
        self.default_stream = None
        self.sys_params: dict[int, int] = {}
        self.deterministic = 0

    # ---- lifecycle ----------------------------------------------------------------
    def init(self, chip: Any = None, backed: bool = True) -> None:
        """aclInit. ``chip``: preset name, config path or ChipConfig; None means
        ``$NPU_SIM_CHIP`` or the default preset. The chip is validated here: 100000
        (with the reason, naming the variable if it came from there) when it is bad;
        100002 when already initialised."""
        if self.initialized:
            raise AclError(C.ACL_ERROR_REPEAT_INITIALIZE, "acl.init called twice without acl.finalize")
        config = resolve_chip(chip)
        self.chip_config = config
        self.chip_name = chip if isinstance(chip, str) else config.name
        self.backed = backed
        self.initialized = True

    def need_init(self) -> None:
        """Raise AclError(100001) unless aclInit was called."""
        if not self.initialized:
            raise AclError(C.ACL_ERROR_UNINITIALIZE, "ACL is not initialised: call acl.init() first")

    def need_device(self) -> Device:
        """The current device; AclError 100001 before aclInit, 100004 before aclrtSetDevice."""
        self.need_init()
        if self.device is None:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, "no device set: call acl.rt.set_device(0) first")
        return self.device

    def open_device(self, device_id: int) -> bool:
        """aclrtSetDevice: 100004 for a device id that is not an int (numpy ints are)
        or not 0. Opens the device (with its own address space, ADDRESS_SPACE_STRIDE)
        and its default stream if none is open; returns True if it opened one."""
        self.need_init()
        dev_id = as_int(device_id, "device id", C.ACL_ERROR_INVALID_DEVICE)
        if dev_id != 0:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, f"device {dev_id} does not exist (only device 0)")
        if self.device is not None:
            return False
        config = self.chip_config if self.chip_config is not None else resolve_chip(self.chip_name)
        dev = Device(config, dev_id, backed=self.backed)
        dev.memory.rebase(DEVICE_BASE_ADDR + (self._generation % _GENERATIONS) * ADDRESS_SPACE_STRIDE)
        self._generation += 1
        self.device = dev
        self.device_id = dev_id
        self.default_stream = dev.create_stream()
        return True

    def check_device_id(self, device_id: int) -> Device:
        """The current device if ``device_id`` names it (aclrtResetDevice), else 100004."""
        dev = self.need_device()
        dev_id = as_int(device_id, "device id", C.ACL_ERROR_INVALID_DEVICE)
        if dev_id != self.device_id:
            raise AclError(C.ACL_ERROR_INVALID_DEVICE, f"device {dev_id} is not set")
        return dev

    # ---- the calling thread's context (aclrtGetCurrentContext / aclrtSetCurrentContext) ----
    @property
    def handle(self) -> int:
        """The default context's handle (aclrtContext) of the open device."""
        self.need_device()
        return CONTEXT_HANDLE_BASE + self._generation

    def current_context(self) -> int:
        """aclrtGetCurrentContext: the calling thread's context. A thread that bound none
        uses the device's default context (CANN aclrtSetCurrentContext restrictions:
        without aclrtCreateContext, the default context is bound to the calling thread).
        AclError 100001/100004 without a device."""
        return self.handle

    def set_current_context(self, handle) -> None:
        """aclrtSetCurrentContext: bind context ``handle`` to the calling thread (the last
        call wins). Only the open device's default context exists here: another handle
        (one from a device since reset or finalised, or junk) is 100000."""
        h = as_int(handle, "context handle")
        if h != self.handle:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"context {h:#x} does not exist (its device was reset or ACL "
                                                     f"finalised; the current one is {self.handle:#x})")
        _BOUND.handle = h

    # ---- system parameters ----------------------------------------------------------
    def set_sys_param(self, opt: int, value: int) -> None:
        """aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt (one context here): 100000 for an
        unknown option or a value other than 0 or 1."""
        self.need_init()
        opt = self._sys_opt(opt)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (0, 1):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"{C.SYS_PARAM_OPTS[opt]} value must be 0 or 1 (an int), "
                                                     f"got {type(value).__name__} {value!r}")
        self.sys_params[opt] = int(value)
        if opt == C.ACL_OPT_DETERMINISTIC:
            self.deterministic = int(value)

    def get_sys_param(self, opt: int) -> int:
        """aclrtGetSysParamOpt / aclrtCtxGetSysParamOpt: the value set, default 0."""
        self.need_init()
        return self.sys_params.get(self._sys_opt(opt), 0)

    @staticmethod
    def _sys_opt(opt) -> int:
        opt = as_int(opt, "aclSysParamOpt")
        if opt not in C.SYS_PARAM_OPTS:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"unknown aclSysParamOpt {opt!r}; known: "
                                                     f"{', '.join(f'{k} {v}' for k, v in C.SYS_PARAM_OPTS.items())}")
        return opt
