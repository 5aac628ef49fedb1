"""opbase analogue: tensor metadata, executors, status codes, shared tiling helpers."""
