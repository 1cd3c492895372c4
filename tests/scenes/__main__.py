"""``python -m tests.scenes``: see :mod:`tests.scenes.cli`."""

import sys

from .cli import main

sys.exit(main())
