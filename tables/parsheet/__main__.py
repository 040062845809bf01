"""`python -m tables.parsheet [FILE|-] [--json]` and `python -m tables.parsheet bench`."""

import sys

from .cli import main

sys.exit(main())
