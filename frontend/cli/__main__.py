"""``python -m frontend.cli`` (same as ``npu-sim``)."""
import sys

from . import main

sys.exit(main())
