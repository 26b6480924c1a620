"""What this computer can run: its memory and the processor cores the app may use (``discovery.recommend``
sizes its model picks by it)."""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openhuman_desktop.llm.discovery import Suggestion


@dataclass(frozen=True)
class Machine:
    """What this computer can run: its memory (None: unknown) and the processor cores the app may use."""

    memory_bytes: int | None
    cores: int

    def describe(self) -> str:
        """ "16 GB of memory, 8 cores" (what is known)."""
        cores = f"{self.cores} core{'s' if self.cores != 1 else ''}"
        if self.memory_bytes is None:
            return cores
        return f"{round(self.memory_bytes / 1e9):,} GB of memory, {cores}"

    def runs(self, suggestion: Suggestion) -> bool:
        """Whether a model of that size answers here at a usable pace: its weights, their working memory and
        the rest of the desktop fit in memory, and a 7B-class model (over 4 GB) has at least 4 cores."""
        if self.memory_bytes is None:
            return suggestion.size_bytes < 2.5e9   # unknown memory: nothing above the 3B class
        needed = suggestion.size_bytes * 1.5 + 2e9
        return self.memory_bytes >= needed and (suggestion.size_bytes <= 4e9 or self.cores >= 4)


def this_machine() -> Machine:
    """This computer's memory and the cores this process may use."""
    return Machine(_memory_bytes(), _cores())


def _memory_bytes() -> int | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):   # Windows has no sysconf
        return _windows_memory()
    return pages * size if pages > 0 and size > 0 else None


def _windows_memory() -> int | None:
    if sys.platform != "win32":
        return None
    import ctypes

    class _Status(ctypes.Structure):
        _fields_ = [("length", ctypes.c_ulong), ("load", ctypes.c_ulong), ("total", ctypes.c_ulonglong),
                    ("available", ctypes.c_ulonglong), ("page_total", ctypes.c_ulonglong),
                    ("page_available", ctypes.c_ulonglong), ("virtual_total", ctypes.c_ulonglong),
                    ("virtual_available", ctypes.c_ulonglong), ("extended", ctypes.c_ulonglong)]

    status = _Status()
    status.length = ctypes.sizeof(_Status)
    windll = getattr(ctypes, "windll", None)
    if windll is None or not windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
        return None
    return int(status.total)


def _cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)
