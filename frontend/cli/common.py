"""What every ``npu-sim`` command shares: the user-error type, model resolution and
loading, early checks that output paths are writable (and are not one of the
inputs), and atomic output writes (``acl_runtime.atomic_io``: a temporary file in
the same folder, then a rename, so an interrupt or a full disk keeps the old file)."""
from __future__ import annotations

import os
from pathlib import Path

from acl_runtime.atomic_io import atomic_write_path, temp_path_for

from ..model_zoo import light_model_path, light_models, minilm_model_path

DEFAULT_MODEL = "light_resnet50.onnx"
DEFAULT_TRACE = "npu_sim_trace.json"   # npu-sim run's trace when --trace is not given
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


def load_graph(path, overrides=None, fuse: bool = True, timing_only: bool = False):
    """``load_onnx(path, overrides, fuse_attention=fuse, meta_only=timing_only)`` (``path``:
    a file or an already parsed ``onnx.ModelProto``, so a caller that read the model once
    does not parse it again). ``timing_only``: the big weights are metadata only
    (:mod:`frontend.meta_const`); the graph then runs on a timing-only device only.
    Raises CliError for an unreadable model or one without outputs."""
    from ..onnx_import import UnsupportedModelError, load_onnx
    try:
        graph = load_onnx(path, overrides=overrides, fuse_attention=fuse, meta_only=timing_only)
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    if not graph.outputs:
        raise CliError(f"{path} has no graph outputs (is it an ONNX model?)")
    return graph


def _same_file(a: Path, b) -> bool:
    if not b:
        return False
    try:
        if a.exists() and Path(b).exists():
            return os.path.samefile(a, b)
        return a.resolve() == Path(b).resolve()
    except OSError:
        return False


def writable_file(path: str, inputs=()) -> Path:
    """Check early that ``path`` can be written (so a long run does not fail at the end):
    not a directory, not one of ``inputs`` (``--trace model.onnx`` must not destroy the
    model), and a file can really be created in its folder (``/proc`` passes
    ``os.access``). Raises CliError."""
    p = Path(path)
    if not str(path):
        raise CliError("empty output path")
    for src in inputs:
        if _same_file(p, src):
            raise CliError(f"refusing to write {str(path)!r}: it is one of the inputs ({str(src)!r})")
    if p.is_dir():
        raise CliError(f"{str(path)!r} is a directory; give a file name")
    if not p.parent.is_dir():
        raise CliError(f"cannot write {str(path)!r}: directory {str(p.parent)!r} does not exist")
    if not os.access(p.parent, os.W_OK):
        raise CliError(f"cannot write {str(path)!r}: directory {str(p.parent)!r} is not writable")
    try:
        os.unlink(temp_path_for(p))
    except OSError as e:
        raise CliError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    return p


def write_atomically(path: Path, write) -> str | None:
    """``write(tmp_path)`` then rename onto ``path`` (``atomic_write_path``). Returns None
    on success, or a one-line reason when the file system refused (full disk, ...): the
    old file at ``path`` is then untouched."""
    try:
        atomic_write_path(path, write)
    except OSError as e:
        return f"cannot write {str(path)!r}: {e.strerror or e}; the previous file (if any) is unchanged"
    return None


def writable_dir(path: str, inputs=()) -> Path:
    """Create (if needed) and check an output directory; not one of ``inputs``."""
    p = Path(path)
    for src in inputs:
        if _same_file(p, src):
            raise CliError(f"refusing to write into {str(path)!r}: it is one of the inputs")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create output directory {str(path)!r}: {e.strerror or e}") from None
    if not p.is_dir() or not os.access(p, os.W_OK):
        raise CliError(f"cannot write into {str(path)!r}: not a writable directory")
    return p
