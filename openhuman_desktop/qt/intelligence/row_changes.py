"""Rows of a list model that changed: runs of consecutive rows (one ``dataChanged`` each), and how a list
view repaints them without measuring every row."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QAccessible, QAccessibleTableModelChangeEvent
from PySide6.QtWidgets import QAbstractItemView


def row_runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as ``(first, last)`` runs of consecutive rows (one ``dataChanged`` per run)."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def repaint_changed_rows(view: QAbstractItemView, first: QModelIndex | QPersistentModelIndex,
                         last: QModelIndex | QPersistentModelIndex, roles: Sequence[int]) -> None:
    """What a list view should do on ``dataChanged`` when no row changed height: repaint, measure nothing.

    QListView lays every row out again on any ``dataChanged``, and for a run of rows QAbstractItemView asks
    each row its size to find what to repaint (a tick changes a run of 900 rows: ~25 ms of size hints).
    One row repaints its own rectangle; a run repaints the visible rows. Screen readers hear of the change.
    """
    if first == last:
        QAbstractItemView.dataChanged(view, first, last, list(roles))
        return
    view.viewport().update()
    if QAccessible.isActive():
        event = QAccessibleTableModelChangeEvent(view, QAccessibleTableModelChangeEvent.ModelChangeType.DataChanged)
        event.setFirstRow(first.row())
        event.setLastRow(last.row())
        event.setFirstColumn(first.column())
        event.setLastColumn(last.column())
        QAccessible.updateAccessibility(event)
