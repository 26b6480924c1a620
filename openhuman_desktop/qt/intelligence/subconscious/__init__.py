"""The Subconscious tab's rooms: Active Tasks (``tasks`` with its model, painted rows, cards, list and dialogs),
Approval Needed (``approvals``) and the last 30 days' decisions (``decisions_chart``); the Activity Log is
``qt/intelligence/activity/``."""

from openhuman_desktop.qt.intelligence.subconscious.approvals import ApprovalsView
from openhuman_desktop.qt.intelligence.subconscious.decisions_view import DecisionsView
from openhuman_desktop.qt.intelligence.subconscious.tasks import TasksView

__all__ = ["ApprovalsView", "DecisionsView", "TasksView"]
