"""``python -m frontend.workloads {encoder,decoder} [--preset P] [--chip C] ...``"""
import sys

from .cli import main

sys.exit(main())
