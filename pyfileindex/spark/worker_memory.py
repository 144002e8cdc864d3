"""Allocator setting for executor tasks that build indexes file after file.

glibc serves blocks above a threshold (128 KiB, raised up to 32 MiB as such blocks are freed)
from fresh mappings and hands the top of its heap back to the system once more than twice
that sits free. A task that builds one data file's indexes after another (each a few MiB of
scratch and output, a bloom filter's bit set alone 1.2 MiB at Paimon's default size) then
faults fresh pages in on every file: about 1,600 per 100k-row file of the demo, some 15% of
the task's time here. keep_freed_heap() lets the worker keep up to KEEP_BYTES of freed heap
for the next file instead. It changes glibc's process-wide setting, so only the executor
tasks call it (a worker process runs nothing else); elsewhere than on glibc it does nothing.
"""

import ctypes
import sys

KEEP_BYTES = 64 << 20
MMAP_THRESHOLD_BYTES = 32 << 20  # glibc's largest allowed value on 64-bit
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

_applied = False


def keep_freed_heap() -> bool:
    """Keep up to KEEP_BYTES of freed heap in this process and serve blocks below
    MMAP_THRESHOLD_BYTES from it. True when glibc took the setting (also on later calls)."""
    global _applied
    if _applied:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the process runs on
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # glibc returns 1 on success; musl's stub returns 0.
    _applied = (mallopt(_M_TRIM_THRESHOLD, KEEP_BYTES) == 1
                and mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1)
    return _applied
