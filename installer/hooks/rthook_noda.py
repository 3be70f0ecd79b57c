"""PyInstaller runtime hook: point Noda at the files inside the bundle, wherever it was unpacked."""
import os
import sys

_resources = os.path.join(sys._MEIPASS, "resources")
os.environ.setdefault("NODA_RESOURCES", _resources)
os.environ.setdefault("NODA_TESSDATA", os.path.join(_resources, "tessdata"))

# The bootloader puts the bundle's libraries first on LD_LIBRARY_PATH. This process has already read it;
# give programs we start (the system viewer opening an original) the user's own value back.
if "LD_LIBRARY_PATH_ORIG" in os.environ:
    os.environ["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH_ORIG"]
elif "LD_LIBRARY_PATH" in os.environ and sys.platform.startswith("linux"):
    del os.environ["LD_LIBRARY_PATH"]
