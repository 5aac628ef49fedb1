"""ACL-style runtime over the simulated device.

Two levels:
  * ``from acl_runtime import acl`` -- pyACL conventions (values first, status last).
  * ``acl_runtime.api`` -- Pythonic: :class:`~acl_runtime.api.Session` context
    manager, numpy in and out, typed exceptions.
"""
from .runtime import AclError, current_chip, runtime

__all__ = ["AclError", "current_chip", "runtime"]
