"""What every ``npu-sim`` command shares: the user-error type, model resolution and
loading, and early checks that output paths are writable."""
from __future__ import annotations

import os
from pathlib import Path

from ..model_zoo import light_model_path, light_models, minilm_model_path

DEFAULT_MODEL = "light_resnet50.onnx"
MINILM = "paraphrase-MiniLM-L3-v2"  # from the optional extra `models`


class CliError(Exception):
    """A user error: printed as one line, exit code ``code``."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def resolve_model(arg: str | None) -> Path:
    if not arg:
        return light_model_path(DEFAULT_MODEL)
    p = Path(arg)
    if p.is_file():
        return p
    if p.is_dir():
        raise CliError(f"model {arg!r} is a directory, not an .onnx file")
    lp = light_model_path(arg if arg.endswith(".onnx") else arg + ".onnx")
    if lp.exists():
        return lp
    if arg.lower().removesuffix(".onnx") in (MINILM.lower(), "minilm"):
        mp = minilm_model_path()
        if mp is None:
            raise CliError(f"{MINILM} needs the optional package: pip install 'npu-sim[models]'")
        return Path(mp)
    raise CliError(f"model {arg!r} not found (not a file, nor an onnx light model: {', '.join(light_models())}, "
                   f"nor {MINILM})")


def load_graph(path: Path, overrides=None, fuse: bool = True):
    from ..onnx_import import UnsupportedModelError, load_onnx
    try:
        graph = load_onnx(path, overrides=overrides, fuse_attention=fuse)
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    if not graph.outputs:
        raise CliError(f"{path} has no graph outputs (is it an ONNX model?)")
    return graph


def writable_file(path: str) -> Path:
    """Check early that ``path`` can be written (so a long run does not fail at the end)."""
    p = Path(path)
    if p.is_dir():
        raise CliError(f"{path!r} is a directory; give a file name")
    if not p.parent.is_dir():
        raise CliError(f"cannot write {path!r}: directory {str(p.parent)!r} does not exist")
    if not os.access(p.parent, os.W_OK):
        raise CliError(f"cannot write {path!r}: directory {str(p.parent)!r} is not writable")
    return p


def writable_dir(path: str) -> Path:
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create output directory {path!r}: {e.strerror or e}") from None
    if not p.is_dir() or not os.access(p, os.W_OK):
        raise CliError(f"cannot write into {path!r}: not a writable directory")
    return p
