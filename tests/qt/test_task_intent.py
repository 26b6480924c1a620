"""A task's row says where its intent came from (keywords, model, you, assistant, built-in) and, for a read-only task
the model or its words would let write, shows "May write?": one click lets it write (issue 25)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.subconscious.task_card import TaskCard, task_menu
from openhuman_desktop.qt.intelligence.subconscious.tasks import TasksView
from openhuman_desktop.qt.intelligence.theme import ACCENTS
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.intent import PROBES


def open_row(view: TasksView, task_id: str) -> TaskCard:
    card = view.open_row(task_id)
    assert card is not None, f"no row for {task_id}"
    return card


def grab_row(view: TasksView, task_id: str) -> QImage:
    rect = view.list_view.visualRect(view.model.index_of(task_id))
    return view.list_view.viewport().grab(rect).toImage()


def amber_pixels(image: QImage, rect: Any) -> int:
    """How many pixels inside ``rect`` (row coordinates) are tinted amber (the "May write?" badge)."""
    ratio = image.devicePixelRatio()
    amber = [QColor(c) for c in ACCENTS["amber"]]
    count = 0
    for x in range(rect.left(), rect.right()):
        for y in range(rect.top(), rect.bottom()):
            pixel = image.pixelColor(round(x * ratio), round(y * ratio))
            if any(abs(pixel.red() - c.red()) < 40 and abs(pixel.green() - c.green()) < 40
                   and abs(pixel.blue() - c.blue()) < 40 for c in amber) and pixel.red() > pixel.blue() + 40:
                count += 1
    return count


@pytest.mark.parametrize(("source", "words"), [
    ("keyword", "Read only · keywords"), ("model", "Read only · model"), ("user", "Read only · you"),
    ("assistant", "Read only · assistant"), ("default", "Read only · built-in"),
])
def test_the_row_says_where_the_intent_came_from(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, source: str, words: str
) -> None:
    view = fake_window.tasks_view
    task = replace(fakes.make_task("Check the weather", task_id="t-1", created_at=fakes.NOW), intent_source=source)
    fake_bridge.tasks_changed.emit([task])
    card = open_row(view, "t-1")
    assert card.intent_button.text() == words
    assert card._source_action.text() == f"Set by {words.split(' · ')[1]}"
    assert not card._source_action.isEnabled(), "the source line is information, not a choice"
    assert "Click to change." in card.intent_button.toolTip()
    description = view.model.data(view.model.index_of("t-1"), Qt.ItemDataRole.AccessibleDescriptionRole)
    assert f"set by {words.split(' · ')[1]}" in description
    assert card.suggestion_button.isHidden()


def test_may_write_shows_only_on_a_read_only_task_asked_about(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any
) -> None:
    view = fake_window.tasks_view
    asks = replace(fakes.make_task("Check the weather", task_id="asks", created_at=fakes.NOW),
                   intent_source="keyword", intent_suggestion="write")
    plain = replace(fakes.make_task("Check the news", task_id="plain", created_at=fakes.NOW + 1),
                    intent_source="keyword")
    writes = replace(fakes.make_task("Send the news", task_id="writes", intent="write", created_at=fakes.NOW + 2),
                     intent_source="user", intent_suggestion="write")   # answered already: nothing to ask
    fake_bridge.tasks_changed.emit([asks, plain, writes])
    delegate = view.list_view.task_delegate
    metrics = delegate.metrics()
    for task_id, shown in (("asks", True), ("plain", False), ("writes", False)):
        task = view.task(task_id)
        assert task is not None
        geometry = delegate.geometry(task, "")
        _, _, chip = delegate.details(task, geometry, "")
        painted = amber_pixels(grab_row(view, task_id), metrics.suggestion_rect(chip))
        assert (painted > 20) is shown, (task_id, painted)
        description = view.model.data(view.model.index_of(task_id), Qt.ItemDataRole.AccessibleDescriptionRole)
        assert ("asks whether it may write" in description) is shown
    card = open_row(view, "asks")
    assert card.suggestion_button.isVisibleTo(card)
    assert card.suggestion_button.text() == "May write?"
    assert "stays read only until you agree" in card.suggestion_button.toolTip()
    assert card.suggestion_button.geometry().left() > card.intent_button.geometry().right()
    assert card.suggestion_button in card.tab_stops()
    width = view.list_view.viewport().width()
    task = view.task("asks")
    assert task is not None
    chip_right = card.intent_button.geometry()
    tip = metrics.tooltip_at(task, metrics.suggestion_rect(chip_right).center(), width, "", fakes.NOW)
    assert "Click to let it write" in tip


def test_one_click_on_may_write_lets_the_task_write(
    qtbot: Any, intelligence_window: IntelligenceWindow, gui_harness: Any, settle: Any, qrun: Any
) -> None:
    # a model that passes the probes and hears a change in "Check the weather": the task stays read-only and asks
    gui_harness.local.intent_for = lambda title: PROBES.get(title, "write")
    services = gui_harness.services
    task = qrun(services.subconscious.tasks_add("Check the weather"))
    qrun(services.subconscious.intents_refined())
    settle(intelligence_window)
    view = intelligence_window.tasks_view
    shown = view.task(task.id)
    assert shown is not None and (shown.intent, shown.intent_source, shown.intent_suggestion) == (
        "read", "keyword", "write")
    card = open_row(view, task.id)
    assert card.intent_button.text() == "Read only · keywords"
    assert card.suggestion_button.isVisibleTo(card)
    # the question has a line of its own, under the schedule
    asking_height = view.list_view.visualRect(view.model.index_of(task.id)).height()
    assert card.suggestion_button.geometry().top() > card.intent_button.geometry().top() - 2
    qtbot.mouseClick(card.suggestion_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    qtbot.waitUntil(lambda: view.list_view.visualRect(view.model.index_of(task.id)).height() < asking_height)
    stored: Task = qrun(services.store.tasks.get(task.id))
    assert (stored.intent, stored.intent_source, stored.intent_suggestion) == ("write", "user", None)
    assert card.intent_button.text() == "May write · you"
    assert card.suggestion_button.isHidden()
    assert card._intent_actions["write"].isChecked()


def test_the_rows_menu_offers_to_let_it_write(fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any) -> None:
    view = fake_window.tasks_view
    task = replace(fakes.make_task("Check the weather", task_id="asks", created_at=fakes.NOW),
                   intent_source="model", intent_suggestion="write")
    fake_bridge.tasks_changed.emit([task])
    card = open_row(view, "asks")
    chosen: list[str] = []
    menu = task_menu(card, task, on_toggle=lambda: None, on_intent=chosen.append, on_delete=lambda: None)
    [confirm] = [a for a in menu.actions() if a.text() == "Let it write (May write?)"]
    assert "words ask for a change" in confirm.toolTip()  # the model narrowed the words' "write"
    intents = next(a.menu() for a in menu.actions() if a.text() == "Intent")
    assert intents.actions()[0].text() == "Set by model" and not intents.actions()[0].isEnabled()
    confirm.trigger()
    assert chosen == ["write"]
    menu.deleteLater()
    plain = replace(task, intent_suggestion=None)
    menu = task_menu(card, plain, on_toggle=lambda: None, on_intent=chosen.append, on_delete=lambda: None)
    assert not [a for a in menu.actions() if a.text().startswith("Let it write")]
    menu.deleteLater()
