"""`python -m explorer_core ...`: see `explorer_core.cli`."""

from explorer_core.cli import main

if __name__ == "__main__":  # subtle: tests import every module; importing must not run the CLI
    raise SystemExit(main())
