"""`python -m tables.parsheet [FILE|-] [--json]`, `... bench` and `... bench-decisions`."""

import sys

from .cli import main

sys.exit(main())
