"""`python -m tables.rules settle FILE|-` and `python -m tables.rules bench`."""

import sys

from .cli import main

sys.exit(main())
