"""Settings > Skills: one form per built-in skill of the person's world (mail, feeds, calendars, web, Slack), each
with a Test button that connects with what the form holds (saved or not) and says what it found, or why not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from openhuman_desktop import config, config_skills
from openhuman_desktop.errors import ConfigError, UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.settings.fields import Field, Form, choice_field, int_field, switch_field, text_field

Tester = Callable[[str, Any], Awaitable[str]]
"""``(skill name, its settings as the form holds them)`` → what the Test button says (raises UserFacingError)."""

SKILLS = ("email", "feeds", "calendar", "web", "slack")
TITLES = {"email": "Email (IMAP and SMTP)", "feeds": "News feeds (RSS and Atom)", "calendar": "Calendars (ICS)",
          "web": "Web pages", "slack": "Slack"}


def _strings(value: Any) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list | tuple) else []


# What each field shows from the settings in force (merged into sections.VALUES).
WORLD_VALUES: dict[str, Callable[[config.Settings], Any]] = {
    "skills.email.enabled": lambda s: s.skills.email.enabled,
    "skills.email.imap_host": lambda s: s.skills.email.imap_host,
    "skills.email.imap_port": lambda s: s.skills.email.imap_port,
    "skills.email.smtp_host": lambda s: s.skills.email.smtp_host,
    "skills.email.smtp_port": lambda s: s.skills.email.smtp_port,
    "skills.email.username": lambda s: s.skills.email.username,
    "skills.email.password_env": lambda s: s.skills.email.password_env,
    "skills.email.folders": lambda s: list(s.skills.email.folders),
    "skills.email.security": lambda s: s.skills.email.security,
    "skills.email.ca_file": lambda s: s.skills.email.ca_file or "",
    "skills.feeds.enabled": lambda s: s.skills.feeds.enabled,
    "skills.feeds.urls": lambda s: list(s.skills.feeds.urls),
    "skills.calendar.enabled": lambda s: s.skills.calendar.enabled,
    "skills.calendar.sources": lambda s: list(s.skills.calendar.sources),
    "skills.calendar.horizon_hours": lambda s: s.skills.calendar.horizon_hours,
    "skills.web.enabled": lambda s: s.skills.web.enabled,
    "skills.web.allow_private": lambda s: s.skills.web.allow_private,
    "skills.slack.enabled": lambda s: s.skills.slack.enabled,
    "skills.slack.webhook_env": lambda s: s.skills.slack.webhook_env,
}


def list_field(key: str, name: str, placeholder: str) -> Field:
    """A list of strings, one a line (folders, feed URLs, calendar sources)."""
    edit = QPlainTextEdit()
    edit.setPlaceholderText(placeholder)
    edit.setAccessibleName(name)
    edit.setTabChangesFocus(True)
    edit.setFixedHeight(em(edit) * 4)
    edit.setMinimumWidth(em(edit) * 22)

    def read() -> list[str]:
        return [line.strip() for line in edit.toPlainText().splitlines() if line.strip()]

    field = Field(key, edit, read, lambda value: edit.setPlainText("\n".join(_strings(value))))
    edit.textChanged.connect(field.edited)
    return field


def port_field(key: str, name: str, special: str) -> Field:
    """A port number: 0 (the usual one) to 65535, written as a port is (993, never "993" with a separator)."""
    field = int_field(key, name, 0, 65535, special=special)
    if isinstance(field.widget, QSpinBox):
        field.widget.setGroupSeparatorShown(False)
    return field


class SkillTester(QWidget):
    """A skill's Test button and the one sentence it says."""

    def __init__(self, name: str, fields: list[Field], jobs: Jobs, tester: Tester | None) -> None:
        super().__init__()
        self.name = name
        self._fields = fields
        self._jobs = jobs
        self._tester = tester
        self.button = QPushButton("Test", self)
        self.button.setAccessibleName(f"Test {TITLES[name]}")
        self.button.setEnabled(tester is not None)
        self.result = MutedLabel("", self)
        self.result.setWordWrap(True)
        self.result.hide()  # until there is something to say
        # As wide as the form lets it be: at its own size hint the sentence was wrapped into a narrow, cut column.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.result.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        # The sentence goes under the button, the form's whole width: beside it, a long one was squeezed and cut.
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addStretch(1)
        column.addLayout(row)
        column.addWidget(self.result)
        self.button.clicked.connect(self._on_button_clicked)

    def table(self) -> dict[str, Any]:
        """The skill's table as the form holds it (``enabled`` as shown; the test itself turns it on)."""
        prefix = f"skills.{self.name}."
        return {field.key.removeprefix(prefix): field.value() for field in self._fields
                if field.value() not in ("", None)}

    def _on_button_clicked(self) -> None:
        self._jobs.spawn(self.test(), name=f"test-skill-{self.name}", group=f"test-skill-{self.name}")

    async def test(self) -> str:
        """Test what the form holds; the sentence is shown under the form and returned."""
        self.button.setEnabled(False)
        self.result.setText("Testing…")
        self.result.show()
        try:
            table = {**self.table(), "enabled": True}
            try:
                loaded = config.parse({"skills": {self.name: table}}, Path("the form"), {})
            except ConfigError as exc:
                text = f"Not tested: {exc.expected} is expected for {exc.key.split('.')[-1]}."
            else:
                assert self._tester is not None
                try:
                    text = await self._tester(self.name, getattr(loaded.settings.skills, self.name))
                except UserFacingError as exc:
                    text = str(exc)
        finally:
            self.button.setEnabled(self._tester is not None)
        self.result.setText(text)
        self._fit()
        return text

    def _fit(self) -> None:
        """Make room for every line of the sentence (a wrapped label's height is not asked for again by itself)."""
        width = self.result.width() if self.result.width() > 50 else self.width()
        self.result.setMinimumHeight(self.result.heightForWidth(width))
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.result.isVisible():
            self._fit()


def add_world_forms(page: Any, fields: list[Field], jobs: Jobs, tester: Tester | None) -> dict[str, SkillTester]:
    """The five forms on the Skills page (``page``: sections.Page); their fields are appended to ``fields``."""
    testers: dict[str, SkillTester] = {}

    def form(name: str, about: str, made: list[tuple[str, Field, str]]) -> None:
        panel_form: Form = page.form(TITLES[name])
        own: list[Field] = []
        for label, field, hint in made:
            panel_form.add(label, field, hint)
            own.append(field)
            fields.append(field)
        tester_row = SkillTester(name, own, jobs, tester)
        panel_form.add("", tester_row, about)
        testers[name] = tester_row

    form("email", "Test connects now and counts the folders' messages.", [
        ("Enabled", switch_field("skills.email.enabled", "Email enabled"), "New mail is watched by the heartbeat."),
        ("IMAP server", text_field("skills.email.imap_host", "IMAP server", placeholder="imap.example.com"), ""),
        ("IMAP port", port_field("skills.email.imap_port", "IMAP port", "usual (993 / 143)"), ""),
        ("SMTP server", text_field("skills.email.smtp_host", "SMTP server", placeholder="same as IMAP",
                                   empty_removes=True), "Where email_send sends from."),
        ("SMTP port", port_field("skills.email.smtp_port", "SMTP port", "usual (465 / 587)"), ""),
        ("User", text_field("skills.email.username", "Mail user", placeholder="me@example.com"), ""),
        ("Password variable", text_field("skills.email.password_env", "Password variable",
                                         placeholder="MAIL_PASSWORD"),
         "The NAME of the environment variable that holds the password (never the password itself)."),
        ("Folders", list_field("skills.email.folders", "Watched folders", "INBOX"), "One a line."),
        ("Security", choice_field("skills.email.security", "Connection security",
                                  {"tls": "TLS", "starttls": "STARTTLS", "none": "None (this computer only)"}), ""),
        ("Certificate file", text_field("skills.email.ca_file", "Certificate file", empty_removes=True,
                                        placeholder="optional: a PEM file for your own server"), ""),
    ])
    form("feeds", "Test reads each feed now.", [
        ("Enabled", switch_field("skills.feeds.enabled", "Feeds enabled"), "New items are watched."),
        ("Feeds", list_field("skills.feeds.urls", "Feed URLs", "https://example.com/feed.xml"), "One URL a line."),
    ])
    form("calendar", "Test reads each calendar now.", [
        ("Enabled", switch_field("skills.calendar.enabled", "Calendars enabled"), "Upcoming events are watched."),
        ("Calendars", list_field("skills.calendar.sources", "Calendar sources", "https://… .ics or /path/to/file.ics"),
         "ICS addresses or files, one a line."),
        ("Look ahead", int_field("skills.calendar.horizon_hours", "Hours ahead", 1, config_skills.MAX_HORIZON_HOURS,
                                 suffix=" h"), "Events starting this soon are in the report."),
    ])
    form("web", "Test checks nothing: pages are fetched when a task asks.", [
        ("Enabled", switch_field("skills.web.enabled", "Web pages enabled"), "web_fetch reads pages as text."),
        ("Private addresses", switch_field("skills.web.allow_private", "Allow private addresses"),
         "Off: pages on your own network and this computer are refused."),
    ])
    form("slack", "Test checks the variable (nothing is posted).", [
        ("Enabled", switch_field("skills.slack.enabled", "Slack enabled"), "slack_post posts to a channel."),
        ("Webhook variable", text_field("skills.slack.webhook_env", "Webhook variable",
                                        placeholder="SLACK_WEBHOOK_URL"),
         "The NAME of the variable that holds the incoming webhook's address."),
    ])
    return testers
