"""``python -m mai_safety.infrastructure.cli``: the local CLI."""

import sys

from . import main

sys.exit(main())
