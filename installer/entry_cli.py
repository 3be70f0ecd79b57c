"""Bundle entry point of `noda` (the command line)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # parse workers are this same executable, started with 'spawn'
    from noda_desktop.cli import main

    sys.exit(main())
