"""Bundle entry point of `noda-desktop` (the window)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # parse workers are this same executable, started with 'spawn'
    from noda_desktop.gui import main

    sys.exit(main())
