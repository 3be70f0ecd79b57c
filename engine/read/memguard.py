"""The memory limit of a process that reads one file (``Limits.max_rss_bytes``).

The expansion budget and the content limits stop the files we know how to
measure; a reader can still need more than its file looks like (a PDF drawing
one huge picture, a structure no limit foresaw). So parse workers run each
file under ``guard``: a thread looks at the process's resident memory every
20 ms and, past the limit, ends the process with ``EXIT_MEMORY`` — a worker
process, so only that file is lost, and the pool reports it as TOO_LARGE. The
thread needs the GIL; MuPDF holds it while it draws a page, so the limit may
be overshot by what one page takes.

Resident memory comes from /proc/self/statm on Linux and GetProcessMemoryInfo
on Windows; elsewhere there is no guard.
"""
from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import sys
import threading
from contextlib import contextmanager
from typing import Iterator, Optional

EXIT_MEMORY = 87          # exit status of a worker stopped by the guard
INTERVAL_S = 0.02


def rss_bytes() -> Optional[int]:
    """This process's resident memory now, or None where it cannot be read."""
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/self/statm", "rb") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return None
    if sys.platform == "win32":
        return _windows_working_set()
    return None


@contextmanager
def guard(limit: int) -> Iterator[None]:
    """Run the block with the process ended (EXIT_MEMORY) once its memory passes ``limit`` bytes.

    Only in a child process (a parse worker): in the main process the block just runs.
    """
    if multiprocessing.parent_process() is None or rss_bytes() is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(INTERVAL_S):
            rss = rss_bytes()
            if rss is not None and rss > limit:
                os._exit(EXIT_MEMORY)

    watcher = threading.Thread(target=watch, name="memguard", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        give_back()


def give_back() -> None:
    """Collect garbage and hand freed heap back to the system, so the next file starts low."""
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass


def _windows_working_set() -> Optional[int]:
    from ctypes import wintypes

    class Counters(ctypes.Structure):   # PROCESS_MEMORY_COUNTERS
        _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD),
                    ("PeakWorkingSetSize", ctypes.c_size_t), ("WorkingSetSize", ctypes.c_size_t),
                    ("QuotaPeakPagedPoolUsage", ctypes.c_size_t), ("QuotaPagedPoolUsage", ctypes.c_size_t),
                    ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
                    ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                    ("PagefileUsage", ctypes.c_size_t), ("PeakPagefileUsage", ctypes.c_size_t)]

    try:
        current = ctypes.windll.kernel32.GetCurrentProcess
        current.restype = wintypes.HANDLE            # a pseudo handle: pointer-sized -1
        info = ctypes.windll.psapi.GetProcessMemoryInfo
        info.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
        info.restype = wintypes.BOOL
        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        if not info(current(), ctypes.byref(counters), counters.cb):
            return None
        return int(counters.WorkingSetSize)
    except (OSError, AttributeError):
        return None
