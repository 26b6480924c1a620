"""Activity Log: a lazily paged list model over subconscious_log (``model``), its delegate (``delegate``), and the
list view and section (``view``)."""

from openhuman_desktop.qt.intelligence.activity.delegate import ActivityDelegate
from openhuman_desktop.qt.intelligence.activity.model import ActivityModel, FailureGroup, readable
from openhuman_desktop.qt.intelligence.activity.view import ActivityListView, ActivityView

__all__ = ["ActivityDelegate", "ActivityListView", "ActivityModel", "ActivityView", "FailureGroup", "readable"]
