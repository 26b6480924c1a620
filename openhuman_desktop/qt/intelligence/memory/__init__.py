"""The Memory tab: its list model (``model``), the delegate that paints a memory (``delegate``) and the tab around
them (``tab``), which reads and writes memory through the ``MemoryService``."""

from openhuman_desktop.qt.intelligence.memory.tab import MemorySource, MemoryView

__all__ = ["MemorySource", "MemoryView"]
