"""`python -m explorer_core ...`: see `explorer_core.cli`."""

from explorer_core.cli import main

raise SystemExit(main())
