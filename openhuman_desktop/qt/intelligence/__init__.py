"""The Intelligence window (Subconscious, Skills and Memory tabs) and its parts."""

from openhuman_desktop.qt.intelligence.window import IntelligenceWindow

__all__ = ["IntelligenceWindow"]
