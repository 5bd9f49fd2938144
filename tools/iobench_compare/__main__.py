"""`python -m iobench_compare`: the iobench-compare command."""

import sys

from .cli import main

sys.exit(main())
