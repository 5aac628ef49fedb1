"""``python -m frontend.onnx_node_tests`` (same as ``npu-sim-node-tests``)."""
import sys

from . import main

sys.exit(main())
