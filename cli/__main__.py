"""`python -m cli …`: the `fupan` command without the installed script."""

import sys

from cli.main import main

sys.exit(main())
