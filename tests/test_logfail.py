"""tests/logfail.py: an unexpected WARNING/ERROR log line fails its test, an expected one (marked) does not, and
``notices`` records what the user was told."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from openhuman_desktop import events
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.intelligence.banner import Banner
from tests.logfail import Notices

pytest_plugins = ["pytester"]

INNER = textwrap.dedent('''
    import logging

    import pytest

    log = logging.getLogger("openhuman_desktop.inner")


    def test_quiet():
        log.info("fine")


    def test_unexpected_warning():
        log.warning("the mailbox is gone")


    def test_unexpected_error_from_a_thread():
        import threading
        thread = threading.Thread(target=lambda: log.error("worker broke"))
        thread.start()
        thread.join()


    @pytest.mark.logs_expected
    def test_marked_any():
        log.error("anything at all")


    @pytest.mark.logs_expected(r"mailbox \\S+ is gone")
    def test_marked_pattern():
        log.warning("mailbox INBOX is gone")


    @pytest.mark.logs_expected(r"mailbox \\S+ is gone")
    def test_marked_pattern_other_line():
        log.warning("mailbox INBOX is gone")
        log.warning("the calendar is gone too")


    def test_reads_its_own_log(caplog):
        log.warning("asserted below")
        assert "asserted below" in caplog.text


    def test_failing_for_its_own_reason():
        log.warning("noise")
        assert 1 == 2
''')


@pytest.mark.logs_expected  # the inner tests' lines reach this process's root logger too
def test_unexpected_lines_fail_and_marked_ones_do_not(pytester: pytest.Pytester,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENHUMAN_LOGFAIL_REPORT", raising=False)
    pytester.makeconftest('pytest_plugins = ["tests.logfail"]\n')
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function")
    result.assert_outcomes(passed=4, failed=4)
    failed = {report.nodeid.split("::")[1] for report in result.reprec.getreports("pytest_runtest_logreport")
              if report.failed}
    assert failed == {"test_unexpected_warning", "test_unexpected_error_from_a_thread",
                      "test_marked_pattern_other_line", "test_failing_for_its_own_reason"}
    result.stdout.fnmatch_lines(["*unexpected log lines*", "*WARNING openhuman_desktop.inner: the mailbox is gone*"])
    result.stdout.fnmatch_lines(["*WARNING openhuman_desktop.inner: the calendar is gone too*"])
    assert "assert 1 == 2" in result.stdout.str()  # its own failure, not the log line, is what it reports


def test_notices_records_what_the_user_was_told(notices: Notices, qtbot: QtBot, tmp_path: Path) -> None:
    bus = events.EventBus()
    bus.publish(events.Notified("HEARTBEAT.md not read", "Line 3 is not a task."))
    bus.publish(events.StatusChanged())
    shown: list[tuple[str, str]] = []
    reporter = ErrorReporter(tmp_path / "openhuman.log", notify=lambda title, text: shown.append((title, text)))
    with pytest.MonkeyPatch.context() as patch:  # the reporter logs a warning for a user-facing error: expected
        patch.setattr(logging.getLogger("openhuman_desktop.qt.errors"), "disabled", True)
        reporter.report(UserFacingError("The model server did not answer."))
        reporter.report(UserFacingError("The model server did not answer."))  # a repeat within 30 s: held back
    window = QWidget()
    qtbot.add_widget(window)
    banner = Banner(window)
    banner.show_text("Saved.")
    banner.show_text("")
    assert [(n.kind, n.text) for n in notices.told] == [
        ("notification", "Line 3 is not a task."),
        ("error", "The model server did not answer."),
        ("banner", "Saved."),
    ]
    assert notices.texts("error") == ["The model server did not answer."]
    assert shown == [("OpenHuman", "The model server did not answer.")]  # what they do is unchanged
