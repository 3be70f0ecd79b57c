"""`python -m noda_desktop.cli …` runs the `noda` command."""
import sys

from noda_desktop.cli import main

if __name__ == "__main__":   # a spawned worker process imports this module too, as __mp_main__
    sys.exit(main())
