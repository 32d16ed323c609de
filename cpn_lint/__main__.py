"""``python -m cpn_lint ...`` runs the ``cpn-lint`` command."""

import sys

from .cli import main

sys.exit(main())
