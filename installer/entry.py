"""Bundle entry point of both programs: `noda` (the command line) and `noda-desktop` (the window).

The name it was started under picks the face — on Linux `noda` is a link to
`noda-desktop`, so the bundle carries one program; on Windows they are two
executables (the CLI needs a console, the window must not open one).
"""
import multiprocessing
import os
import sys

CLI_NAMES = ("noda", "noda.exe")

if __name__ == "__main__":
    multiprocessing.freeze_support()  # parse workers are this same executable, started with 'spawn'
    if os.path.basename(sys.argv[0]).lower() in CLI_NAMES:
        from noda_desktop.cli import main
    else:
        from noda_desktop.gui import main
    sys.exit(main())
