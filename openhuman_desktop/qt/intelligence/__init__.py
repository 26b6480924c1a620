"""The Intelligence window: one package per tab (``subconscious``, ``activity``, ``skills``, ``memory``, ``chat``,
``agent``), the window and status bar, and the parts they build with (``theme``, ``time_text``, one widget per
module)."""

from openhuman_desktop.qt.intelligence.window import IntelligenceWindow

__all__ = ["IntelligenceWindow"]
