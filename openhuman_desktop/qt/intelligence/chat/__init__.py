"""The Chat tab: the desktop channel (``channel``), its list model (``model``), the painted message list
(``view``, with Markdown from ``markdown``) and the tab around them (``tab``)."""

from openhuman_desktop.qt.intelligence.chat.channel import DesktopChannel
from openhuman_desktop.qt.intelligence.chat.tab import ChatView

__all__ = ["ChatView", "DesktopChannel"]
