"""Chip configurations: :class:`ChipConfig` and the named presets."""
from .base import Architecture, ChipConfig
from .presets import DEFAULT_CHIP, PRESETS, get_chip

__all__ = ["Architecture", "ChipConfig", "DEFAULT_CHIP", "PRESETS", "get_chip"]
