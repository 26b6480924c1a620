"""The Agent tab (``tab``): its runs (``runs``, ``run_detail``), the steering directive (``steering``, ``versions``,
``diff``, ``edit``) and the world timeline (``timeline``)."""

from openhuman_desktop.qt.intelligence.agent.tab import AgentView

__all__ = ["AgentView"]
