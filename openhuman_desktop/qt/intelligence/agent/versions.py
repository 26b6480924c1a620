"""The steering directive's versions in words and as a lazy list (the Steering page's left side), and
the shapes of what the page reads: ``SteeringStore`` and the reflection service's status."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QListView, QStyledItemDelegate, QStyleOptionViewItem

from openhuman_desktop.orchestration.steering import (
    DIRECTIVE,
    FAILED,
    REFLECTION,
    REVERT,
    SKIPPED,
    UNCHANGED,
    USER,
    Directive,
    Reflection,
)
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.agent.runs import paint_two_lines, two_line_size
from openhuman_desktop.qt.intelligence.paged_model import PagedListModel
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time, relative_time

AnyIndex = QModelIndex | QPersistentModelIndex
PAGE_SIZE = 50
SOURCE_WORDS = {REFLECTION: "reflection", REVERT: "revert", USER: "you"}
SOURCE_ACCENT = {REFLECTION: "blue", REVERT: "amber", USER: "green"}
CLEARED = "(cleared — no directive)"


class SteeringSource(Protocol):
    """What the page needs from ``SteeringStore``."""

    async def latest(self) -> Directive | None: ...

    async def list(self, limit: int = 50, before: int | None = None) -> list[Directive]: ...

    async def get(self, version: int) -> Directive: ...

    async def revert(self, version: object) -> Directive: ...

    async def edit(self, text: object, rationale: str = "") -> Directive: ...


Reflections = Callable[[int], Awaitable[list[Reflection]]]


class ReflectionState(Protocol):
    """What the page shows of the reflection service's ``status()`` (``reflection_status``)."""

    @property
    def enabled(self) -> bool: ...

    @property
    def next_at(self) -> float | None: ...

    @property
    def model(self) -> str: ...

    @property
    def problem(self) -> str | None: ...

    @property
    def pending_history(self) -> int: ...

    @property
    def pending_timeline(self) -> int: ...


ReflectionStatusSource = Callable[[], Awaitable[ReflectionState]]


def schedule_text(state: ReflectionState, now: float) -> str:
    """``Next reflection Wed 03:00 (qwen2.5:7b) · new since the last one: 3 history and 12 timeline entries``."""
    if not state.enabled:
        head = "Reflection is off ([reflection] enabled in config.toml)"
    elif state.next_at is not None:
        head = f"Next reflection {clock_time(state.next_at, now)}"
    else:
        head = "Reflection runs when you ask"
    if state.model:
        head += f" ({state.model})"
    history, timeline = state.pending_history, state.pending_timeline
    if history or timeline:
        new = f"new since the last one: {history:,} history and {timeline:,} timeline entr" \
              f"{'y' if timeline == 1 else 'ies'}"
    else:
        new = "nothing new since the last one (the next one asks no model)"
    return f"{head} · {new}."


# --- what the page says ---------------------------------------------------------------------------------


def inputs_text(directive: Directive) -> str:
    """What a directive was drawn from, in words."""
    if directive.source == USER:
        return "Written by you."
    if directive.source == REVERT:
        if directive.reverted_to == 0 or directive.is_cleared:
            return "Cleared: runs get no steering."
        return f"A copy of version {directive.reverted_to}."
    inputs = directive.inputs
    parts = []
    n = inputs.history_entries
    history = f"{n:,} compressed-history entr{'y' if n == 1 else 'ies'}"
    if inputs.history_from is not None and inputs.history_to is not None:
        history += f" (#{inputs.history_from}–#{inputs.history_to})"
    parts.append(history)
    if inputs.timeline_from is not None and inputs.timeline_to is not None:
        parts.append(f"timeline entries #{inputs.timeline_from}–#{inputs.timeline_to}")
    return "Drawn from " + " and ".join(parts) + "."


def directive_meta(directive: Directive, now: float) -> str:
    """``Version 7 · by reflection · 2 h ago · qwen2.5:7b``."""
    parts = [f"Version {directive.version}", f"by {SOURCE_WORDS.get(directive.source, directive.source)}",
             relative_time(directive.created_at, now)]
    if directive.model:
        parts.append(directive.model)
    return " · ".join(parts)


def reflection_text(reflection: Reflection, now: float) -> str:
    """The last reflection's outcome in one sentence."""
    when = f"Last reflection {relative_time(reflection.finished_at, now)}"
    if reflection.status == DIRECTIVE:
        text = f"{when}: wrote version {reflection.directive_version}"
    elif reflection.status == UNCHANGED:
        text = f"{when}: kept the directive as it is"
    elif reflection.status == SKIPPED:
        text = f"{when}: nothing new had happened, so no model was asked"
    elif reflection.status == FAILED:
        return f"{when} failed: {reflection.reason or 'no reason was given.'}"
    else:
        text = f"{when}: {reflection.status}"
    extras = []
    if reflection.model and reflection.prompt_tokens:
        extras.append(f"{reflection.model}, {reflection.prompt_tokens:,} prompt tokens")
    if reflection.evicted:
        extras.append(f"{reflection.evicted:,} older entries summarised into memory")
    return text + (f" ({'; '.join(extras)})." if extras else ".")


def version_title(directive: Directive, now: float) -> str:
    """``Version 7 · reflection · 14:05``."""
    return (f"Version {directive.version} · {SOURCE_WORDS.get(directive.source, directive.source)} · "
            f"{clock_time(directive.created_at, now)}")


def version_line(directive: Directive, now: float) -> str:
    """The title and the text on one line (what a screen reader says about a version)."""
    return f"{version_title(directive, now)}: {' '.join(directive.text.split()) or CLEARED}"


class VersionDelegate(QStyledItemDelegate):
    """A version as its number, source and time (bold) over the start of its text."""

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        return two_line_size(option, self._view.viewport().width())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        directive: Directive | None = index.data(VersionModel.DirectiveRole)
        if directive is None:
            return
        text = " ".join(directive.text.split()) or CLEARED
        paint_two_lines(painter, option, version_title(directive, self._now()), text,
                        SOURCE_ACCENT.get(directive.source, "grey"))


# --- the versions list ----------------------------------------------------------------------------------


class VersionModel(PagedListModel[Directive]):
    """Directive versions newest first, paged."""

    DirectiveRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, jobs: Jobs, now: Callable[[], float], parent: QObject | None = None) -> None:
        super().__init__(jobs, page_size=PAGE_SIZE, row_limit=None, job_name="agent-versions-fetch-more",
                         parent=parent)
        self._now = now
        self._source: SteeringSource | None = None

    def set_source(self, source: SteeringSource | None) -> None:
        self._source = source

    async def _page(self, after: Directive | None) -> list[Directive] | None:
        if self._source is None:
            return None
        return await self._source.list(self.page_size, None if after is None else after.version)

    def _key(self, item: Directive) -> int:
        return item.version

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        directive = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return version_line(directive, self._now())
        if role == self.DirectiveRole:
            return directive
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{exact_time(directive.created_at)}\n{directive.rationale}".strip()
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return version_line(directive, self._now())
        return None

    def directive(self, row: int) -> Directive:
        return self.item(row)


