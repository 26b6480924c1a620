"""The Agent tab's Steering page on the real SteeringStore and ledger: the directive in force, its versions,
a readable diff, Revert (to 0 too), the Edit dialog, "Reflect now" and the last reflection's outcome."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from openhuman_desktop.orchestration.events import ReflectionFinished, ReflectionStarted
from openhuman_desktop.orchestration.steering import REFLECTION, DirectiveDraft, Inputs, Reflection
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.agent.diff import DELETE, EQUAL, INSERT, diff_plain, diff_summary, word_diff
from openhuman_desktop.qt.intelligence.agent.edit import DirectiveEditDialog
from openhuman_desktop.qt.intelligence.agent.steering import SteeringView
from openhuman_desktop.qt.intelligence.time_text import clock_time
from openhuman_desktop.qt.wiring import window_ports
from openhuman_desktop.subconscious.reflection import NOT_CONFIGURED, ReflectionStatus

# The offscreen platform cannot pass a dialog's size hints on to a window system.
OFFSCREEN_TOP_LEVEL_WARNING = r"This plugin does not support propagateSizeHints\(\)"
FIRST = "Prefer short answers."
SECOND = "Prefer short answers and check the calendar first."


@pytest.fixture
def steering_window(intelligence_window: IntelligenceWindow, settle: Any) -> IntelligenceWindow:
    intelligence_window.show_tab("agent")
    intelligence_window.agent_view.show_page("steering")
    settle(intelligence_window)   # shown for the first time: the tab reads its pages
    return intelligence_window


def page(window: IntelligenceWindow) -> SteeringView:
    return window.agent_view.steering_view


def write(services: Any, qrun: Any, text: str, source: str = REFLECTION) -> Any:
    return qrun(services.steering.write(DirectiveDraft(text, source, "Trend: the user asks short questions.",
                                                       "qwen2.5:7b", Inputs(12, 40, 87, 1, 12))))


def test_no_directive_says_how_one_comes(steering_window: IntelligenceWindow) -> None:
    view = page(steering_window)
    assert "No steering directive" in view.text_label.text()
    assert not view.clear_button.isEnabled() and not view.source_badge.isVisible()
    # The test app has no [models.subconscious]: Reflect now could only fail, so it is off and says why.
    assert not view.reflect_button.isEnabled() and view.reflect_button.toolTip() == NOT_CONFIGURED


def test_the_current_directive_with_its_source_rationale_and_inputs(steering_window: IntelligenceWindow,
                                                                    gui_services: Any, qrun: Any,
                                                                    until: Any) -> None:
    write(gui_services, qrun, FIRST)
    view = page(steering_window)
    until(lambda: view.current is not None and view.current.version == 1)   # SteeringChanged through the bridge
    assert view.text_label.text() == FIRST
    assert view.source_badge.text() == "reflection" and view.source_badge.isVisible()
    assert view.meta_label.text().startswith("Version 1 · by reflection · ") and "qwen2.5:7b" in view.meta_label.text()
    assert view.rationale_label.text() == "Why: Trend: the user asks short questions."
    assert view.inputs_label.text() == ("Drawn from 12 compressed-history entries (#1–#12) and timeline entries "
                                        "#40–#87.")


def test_selecting_a_version_shows_a_readable_diff_against_the_one_before(
        steering_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any) -> None:
    write(gui_services, qrun, FIRST)
    write(gui_services, qrun, SECOND)
    view = page(steering_window)
    qrun(view.refresh())
    settle(steering_window)
    assert [d.version for d in view.versions.rows()] == [2, 1]
    base, target = view.diff_pair
    assert base is not None and target is not None and (base.version, target.version) == (1, 2)
    assert view.changes_header.text() == "Changes: version 1 → version 2"
    assert view.diff_summary_label.text().startswith("5 words added")
    html = view.diff_browser.toHtml()
    assert "underline" in html and "calendar" in html
    assert "{+ and check the calendar first+}" in view.diff_browser.accessibleDescription()
    # Compared with "no directive", the whole text is new.
    view.base_combo.setCurrentIndex(view.base_combo.findData(0))
    view.base_combo.activated.emit(view.base_combo.currentIndex())
    settle(steering_window)
    assert view.diff_pair[0] is None and view.changes_header.text() == "Changes: no directive → version 2"
    # The older version against the newer one: words removed.
    view.base_combo.setCurrentIndex(view.base_combo.findData(2))
    view.versions_view.setCurrentIndex(view.versions.index(1))
    settle(steering_window)
    assert view.changes_header.text() == "Changes: version 2 → version 1"
    assert "removed" in view.diff_summary_label.text() and "line-through" in view.diff_browser.toHtml()


def test_revert_to_an_older_version_and_clear_to_version_zero(
        steering_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any, qtbot: Any) -> None:
    write(gui_services, qrun, FIRST)
    write(gui_services, qrun, SECOND)
    view = page(steering_window)
    qrun(view.refresh())
    settle(steering_window)
    assert not view.revert_button.isEnabled()       # the newest is the one in force
    view.versions_view.setCurrentIndex(view.versions.index(1))
    settle(steering_window)
    assert view.revert_button.isEnabled() and view.revert_button.text() == "Re&vert to version 1"
    qtbot.mouseClick(view.revert_button, Qt.MouseButton.LeftButton)
    settle(steering_window)
    latest = qrun(gui_services.steering.latest())
    assert (latest.version, latest.source, latest.text, latest.reverted_to) == (3, "revert", FIRST, 1)
    assert view.text_label.text() == FIRST and view.inputs_label.text() == "A copy of version 1."
    assert view.source_badge.text() == "revert"
    qtbot.mouseClick(view.clear_button, Qt.MouseButton.LeftButton)
    settle(steering_window)
    assert qrun(gui_services.steering.current()) is None
    latest = qrun(gui_services.steering.latest())
    assert (latest.version, latest.reverted_to, latest.is_cleared) == (4, 0, True)
    assert view.text_label.text().startswith("Cleared") and not view.clear_button.isEnabled()
    assert [d.version for d in view.versions.rows()] == [4, 3, 2, 1]
    assert "(cleared" in view.versions.data(view.versions.index(0), Qt.ItemDataRole.AccessibleTextRole)


@pytest.mark.qt_log_ignore(OFFSCREEN_TOP_LEVEL_WARNING)
def test_edit_dialog_writes_the_users_directive(steering_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                               settle: Any, qtbot: Any) -> None:
    write(gui_services, qrun, FIRST)
    view = page(steering_window)
    qrun(view.refresh())
    qtbot.mouseClick(view.edit_button, Qt.MouseButton.LeftButton)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, DirectiveEditDialog) and w.isVisible())
    assert dialog.text == FIRST and dialog.text_edit.hasFocus() or dialog.text_edit.toPlainText() == FIRST
    dialog.text_edit.selectAll()
    qtbot.keyClicks(dialog.text_edit, "Answer in French.")
    qtbot.keyClicks(dialog.why_edit, "I am practising.")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    settle(steering_window)
    latest = qrun(gui_services.steering.latest())
    assert (latest.version, latest.source, latest.text, latest.rationale) == (2, "user", "Answer in French.",
                                                                              "I am practising.")
    assert view.editor is None   # closed (and deleted)
    assert view.text_label.text() == "Answer in French." and view.source_badge.text() == "you"


@pytest.mark.qt_log_ignore(OFFSCREEN_TOP_LEVEL_WARNING)
def test_edit_dialog_keeps_the_text_and_says_why_when_the_store_refuses(
        steering_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any, qtbot: Any) -> None:
    view = page(steering_window)
    dialog = view.open_editor()
    dialog.text_edit.setPlainText("bad\x00text")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    settle(steering_window)
    assert dialog.isVisible() and "NUL" in dialog.error_label.text()
    assert dialog.text == "bad\x00text" and dialog.save_button.isEnabled()
    dialog.text_edit.setPlainText("x" * 2001)
    assert not dialog.save_button.isEnabled() and "at most 2,000" in dialog.error_label.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert view.editor is None
    assert qrun(gui_services.steering.latest()) is None


def test_reflect_now_calls_the_trigger_and_the_outcome_follows_the_events(
        steering_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any, qtbot: Any) -> None:
    view = page(steering_window)
    calls: list[str] = []
    assert not view.reflect_button.isEnabled()  # the test app has no [models.subconscious]

    async def configured() -> ReflectionStatus:
        return ReflectionStatus(True, "cron:0 3 * * *", "idle", None, "qwen2.5:7b", None, None, 0, 0)
    view.set_status_source(configured)
    qrun(view.refresh_schedule())
    view.set_trigger(lambda: calls.append("now"))
    assert view.reflect_button.isEnabled()
    qtbot.mouseClick(view.reflect_button, Qt.MouseButton.LeftButton)
    settle(steering_window)
    assert calls == ["now"] and view.reflection_label.text() == "Reflection requested…"
    with qtbot.wait_signal(steering_window._bridge.reflection_started, timeout=2000):
        gui_services.bus.publish(ReflectionStarted("manual"))
    assert view.is_reflecting and view.reflect_spinner.is_running and not view.reflect_button.isEnabled()
    now = gui_services.clock.now()
    done = Reflection(1, now - 3, now, "manual", "directive", "", 12, 87, 1, "qwen2.5:7b", 1534, 2)
    with qtbot.wait_signal(steering_window._bridge.reflection_finished, timeout=2000):
        gui_services.bus.publish(ReflectionFinished(done))
    assert not view.is_reflecting and not view.reflect_spinner.is_running and view.reflect_button.isEnabled()
    assert view.reflection_label.text() == ("Last reflection just now: wrote version 1 (qwen2.5:7b, 1,534 prompt "
                                            "tokens; 2 older entries summarised into memory).")


def test_the_last_recorded_reflection_is_read_from_the_ledger(steering_window: IntelligenceWindow, gui_services: Any,
                                                              qrun: Any) -> None:
    now = gui_services.clock.now()
    qrun(gui_services.ledger.record_reflection(Reflection(0, now - 60, now - 59, "schedule", "failed",
                                                          "The subconscious model did not answer.", 0, 0)))
    view = page(steering_window)
    qrun(view.refresh())
    assert view.reflection_label.text() == ("Last reflection 1 min ago failed: The subconscious model did not "
                                            "answer.")
    qrun(gui_services.ledger.record_reflection(Reflection(0, now, now, "schedule", "skipped", "", 0, 0)))
    qrun(view.refresh())
    assert view.reflection_label.text() == "Last reflection just now: nothing new had happened, so no model was asked."


def test_an_async_trigger_is_awaited(steering_window: IntelligenceWindow, qrun: Any) -> None:
    view = page(steering_window)
    calls: list[str] = []

    async def trigger() -> dict[str, bool]:
        calls.append("async")
        return {"triggered": True}

    view.set_trigger(trigger)
    qrun(view.reflect_now())
    assert calls == ["async"]


def test_word_diff_pieces_and_words() -> None:
    pieces = word_diff("Prefer short answers.", "Prefer brief answers, please.")
    assert [(p.op, p.text) for p in pieces] == [(EQUAL, "Prefer "), (DELETE, "short"), (INSERT, "brief"),
                                                (EQUAL, " answers"), (INSERT, ", please"), (EQUAL, ".")]
    assert diff_summary(pieces) == "2 words added, 1 removed"
    assert diff_plain(pieces) == "Prefer [-short-]{+brief+} answers{+, please+}."
    assert diff_summary(word_diff("same", "same")) == "The two versions have the same text."
    assert diff_summary(word_diff("a b.", "a b!")) == "Only punctuation or spacing changed."
    assert diff_summary(word_diff("a b c", "a")) == "2 words removed"


def test_versions_page_older_versions(steering_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                      until: Any, settle: Any, qtmodeltester: Any) -> None:
    page(steering_window).versions.page_size = 4
    for n in range(10):
        write(gui_services, qrun, f"Directive number {n + 1}.")
    settle(steering_window)   # the reloads the SteeringChanged events asked for (before Qt spins outside the loop)
    view = page(steering_window)
    qrun(view.versions.load())
    assert [d.version for d in view.versions.rows()] == [10, 9, 8, 7]   # one page (the view may ask for more)
    root = view.versions.index(0).parent()

    def scrolled_to_the_end() -> bool:
        if view.versions.canFetchMore(root):
            view.versions.fetchMore(root)
        return view.versions.rowCount() == 10 and not view.versions.is_fetching

    until(scrolled_to_the_end)
    assert [d.version for d in view.versions.rows()] == list(range(10, 0, -1))
    settle(steering_window)
    qtmodeltester.check(view.versions)
    assert view.base_combo.count() == 12   # "the version before", ten versions, "no directive"


@dataclass(frozen=True)
class FakeState:
    """The shape of the reflection service's ``status()``."""

    enabled: bool = True
    next_at: float | None = None
    model: str = "qwen2.5:7b"
    problem: str | None = None
    pending_history: int = 0
    pending_timeline: int = 0


def test_the_schedule_line_and_the_models_problem(steering_window: IntelligenceWindow, gui_services: Any,
                                                  qrun: Any, settle: Any) -> None:
    now = gui_services.clock.now()
    states = [FakeState(next_at=now + 3600, pending_history=3, pending_timeline=12),
              FakeState(enabled=False, problem="[models.subconscious] is not set up in config.toml.")]

    async def status() -> FakeState:
        return states[0]

    view = page(steering_window)
    view.set_status_source(status)
    qrun(view.refresh())
    assert view.schedule_label.isVisible()
    assert view.schedule_label.text() == (f"Next reflection {clock_time(now + 3600, now)} (qwen2.5:7b) · new since "
                                          "the last one: 3 history and 12 timeline entries.")
    assert not view.problem_label.isVisible()
    states.pop(0)
    # A finished reflection reads the status again.
    done = Reflection(1, now, now, "manual", "skipped", "", 0, 0)
    view.on_reflection_finished(done)
    settle(steering_window)
    assert view.schedule_label.text().startswith("Reflection is off ([reflection] enabled in config.toml)")
    assert view.schedule_label.text().endswith("nothing new since the last one (the next one asks no model).")
    assert view.problem_label.isVisible() and "not set up" in view.problem_label.text()


def test_a_coalesced_trigger_says_another_reflection_follows(steering_window: IntelligenceWindow,
                                                             qrun: Any) -> None:
    view = page(steering_window)
    view.set_trigger(lambda: False)   # the service's trigger(): False when one is already running
    qrun(view.reflect_now())
    assert view.reflection_label.text() == "A reflection is running; another one follows it."


class FakeReflection:
    """What the window takes from ``services.reflection``: ``trigger()`` and ``status()``."""

    def __init__(self) -> None:
        self.triggers = 0

    def trigger(self, trigger: str = "manual") -> bool:
        self.triggers += 1
        return True

    async def status(self) -> FakeState:
        return FakeState(next_at=None, pending_history=1)


class WithReflection:
    """The real services plus a reflection service."""

    def __init__(self, services: Any, reflection: FakeReflection) -> None:
        self._services = services
        self.reflection = reflection

    def __getattr__(self, name: str) -> Any:
        return getattr(self._services, name)


def test_the_window_wires_the_reflection_service_when_there_is_one(
        gui_services: Any, bridge: Any, qrun: Any, settle: Any, qtbot: Any) -> None:
    reflection = FakeReflection()
    window = IntelligenceWindow(window_ports(WithReflection(gui_services, reflection)), bridge)
    try:
        qrun(window.refresh())
        window.show()
        window.show_tab("agent")
        window.agent_view.show_page("steering")
        settle(window)
        view = page(window)
        assert view.reflect_button.isEnabled()
        assert view.schedule_label.text().startswith("Reflection runs when you ask (qwen2.5:7b) · new since the "
                                                     "last one: 1 history and 0 timeline entries")
        qtbot.mouseClick(view.reflect_button, Qt.MouseButton.LeftButton)
        settle(window)
        assert reflection.triggers == 1
    finally:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()
