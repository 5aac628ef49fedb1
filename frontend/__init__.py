"""Model frontends over opsnn + acl_runtime: ONNX import, the model runner, the CLI."""
