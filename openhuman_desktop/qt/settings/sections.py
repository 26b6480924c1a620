"""The pages of the Settings window and which config.toml key each field edits (bounds are the loader's)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QVBoxLayout, QWidget

from openhuman_desktop import config, config_reader
from openhuman_desktop.config import Settings
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch
from openhuman_desktop.qt.settings.fields import (
    Field,
    Form,
    chat_ids_field,
    float_field,
    int_field,
    switch_field,
    text_field,
)
from openhuman_desktop.qt.settings.model_tier import Lister, TierEditor
from openhuman_desktop.qt.settings.skills_section import SkillsEditor, ToolLister
from openhuman_desktop.qt.settings.world_section import WORLD_VALUES, SkillTester, Tester, add_world_forms


@dataclass
class Section:
    """One page: its name (for tests and ``show_section``), title, and the fields on it."""

    name: str
    title: str
    description: str
    page: QWidget
    fields: list[Field] = field(default_factory=list)


def _agent_value(name: str) -> Callable[[Settings], Any]:
    return lambda settings: getattr(settings.agent, name)


# What each simple field shows from the settings in force.
VALUES: dict[str, Callable[[Settings], Any]] = {
    "heartbeat.enabled": lambda s: s.heartbeat.enabled,
    "heartbeat.interval_minutes": lambda s: s.heartbeat.interval_minutes,
    "heartbeat.inference_enabled": lambda s: s.heartbeat.inference_enabled,
    "heartbeat.context_budget_tokens": lambda s: s.heartbeat.context_budget_tokens,
    "ollama.host": lambda s: s.ollama_host,
    "rpc.port": lambda s: s.rpc_port,
    "activity_log.retention_days": lambda s: s.activity_log.retention_days,
    "activity_log.max_rows": lambda s: s.activity_log.max_rows,
    "channels.telegram.enabled": lambda s: s.channels.telegram.enabled,
    "channels.telegram.token_env": lambda s: s.channels.telegram.token_env,
    "channels.telegram.allowed_chat_ids": lambda s: list(s.channels.telegram.allowed_chat_ids),
    "channels.telegram.api_url": lambda s: s.channels.telegram.api_url,
    "channels.webapp.enabled": lambda s: s.channels.webapp.enabled,
    "channels.webapp.port": lambda s: s.channels.webapp.port,
    "reflection.enabled": lambda s: s.reflection.enabled,
    "reflection.schedule": lambda s: s.reflection.schedule,
    "notifications.enabled": lambda s: s.notifications.enabled,
    "notifications.quiet_hours": lambda s: config.format_quiet_hours(s.notifications.quiet_hours),
    **{f"agent.{name}": _agent_value(name) for name in config.AgentSettings.__dataclass_fields__},
    **WORLD_VALUES,
}


class Page(QWidget):
    """A section's page: title, one sentence about it, then its forms and panels."""

    def __init__(self, title: str, description: str) -> None:
        super().__init__()
        unit = em(self)
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(unit, unit, unit * 3 // 2, unit)
        self.column.setSpacing(unit)
        header = SectionHeader(title, self)
        self.column.addWidget(header)
        about = MutedLabel(description, self)
        about.setWordWrap(True)
        self.column.addWidget(about)

    def form(self, title: str | None = None) -> Form:
        """A new form on the page (in a titled panel when ``title`` is given)."""
        if title is None:
            form = Form(self)
            self.column.addWidget(form)
            return form
        panel = PanelFrame(self, role=QPalette.ColorRole.Window)  # inputs (Base) stand out in light and dark
        inner = QVBoxLayout(panel)
        unit = em(panel)
        inner.setContentsMargins(unit, unit * 3 // 4, unit, unit)
        inner.addWidget(SectionHeader(title, panel))
        form = Form(panel)
        inner.addWidget(form)
        self.column.addWidget(panel)
        return form

    def finish(self) -> None:
        self.column.addStretch(1)


class AutostartRow(QWidget):
    """"Start at login": applied at once (it is an autostart entry, not a config.toml value)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.switch = ToggleSwitch(self)
        self.switch.setAccessibleName("Start at login")
        self.error = ErrorLabel(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.switch)
        column.addWidget(self.error)


def build_sections(jobs: Jobs, lister: Lister, environ: Mapping[str, str] | None,
                   tools_of: ToolLister | None = None, tester: Tester | None = None,
                   testers: dict[str, SkillTester] | None = None,
                   ) -> tuple[list[Section], dict[str, TierEditor], AutostartRow]:
    """Every page with its fields (values are loaded afterwards, from the settings in force); ``testers`` receives
    the built-in skills' Test rows."""
    sections: list[Section] = []

    def section(name: str, title: str, description: str) -> tuple[Section, Page]:
        page = Page(title, description)
        made = Section(name, title, description, page)
        sections.append(made)
        return made, page

    def add(made: Section, form: Form, label: str, new: Field, hint: str = "") -> Field:
        form.add(label, new, hint)
        made.fields.append(new)
        return new

    general, page = section("general", "General", "How OpenHuman starts and how much history it keeps.")
    form = page.form()
    autostart_row = AutostartRow()
    form.add("Start at login", autostart_row, "Starts OpenHuman in the tray when you log in (changed at once).")
    add(general, form, "RPC port", int_field("rpc.port", "RPC port", 0, 65535, special="any free port"),
        "The local JSON-RPC port on 127.0.0.1; changes at the next start.")
    history = page.form("Activity history")
    add(general, history, "Keep", int_field("activity_log.retention_days", "Days of activity kept", 1, 36_500,
                                            suffix=" days"), "Activity older than this is deleted.")
    add(general, history, "At most", int_field("activity_log.max_rows", "Most activity rows kept", 1_000,
                                               100_000_000, suffix=" rows", step=10_000),
        "And never more rows than this.")
    page.finish()

    heartbeat, page = section("heartbeat", "Heartbeat",
                              "The subconscious loop looks at your tasks on a schedule and decides what to do.")
    form = page.form()
    add(heartbeat, form, "Heartbeat", switch_field("heartbeat.enabled", "Run the heartbeat"),
        "Off: no scheduled ticks (Run Now still works).")
    add(heartbeat, form, "Every", int_field("heartbeat.interval_minutes", "Minutes between ticks",
                                            config.MIN_INTERVAL_MINUTES, 7 * 24 * 60, suffix=" min"),
        f"Minutes between ticks ({config.MIN_INTERVAL_MINUTES} at least).")
    add(heartbeat, form, "Inference", switch_field("heartbeat.inference_enabled", "Evaluate tasks with the model"),
        "Off: tasks are listed but the local model is not asked about them.")
    add(heartbeat, form, "Context budget", int_field("heartbeat.context_budget_tokens", "Context budget",
                                                     1_000, 2_000_000, suffix=" tokens", step=1_000),
        "The most tokens the situation report may use.")
    page.finish()

    models, page = section("models", "Models",
                           "Which model does what. Pick a model from the server's list or type its name.")
    form = page.form()
    host = add(models, form, "Ollama host", text_field("ollama.host", "Ollama host",
                                                        placeholder=config.DEFAULT_OLLAMA_HOST, empty_removes=True),
               "Where Ollama listens; the OLLAMA_HOST environment variable overrides it.")
    tiers: dict[str, TierEditor] = {}
    def ollama_host() -> str:
        return str(host.value() or config.DEFAULT_OLLAMA_HOST)

    for tier in config.MODEL_TIERS:
        editor = TierEditor(tier, jobs, lister, ollama_host, environ)
        tiers[tier] = editor
        page.column.addWidget(editor.panel)
        models.fields.append(editor)
    page.finish()

    channels, page = section("channels", "Channels", "Where you can talk to the assistant besides this desktop.")
    telegram = page.form("Telegram")
    add(channels, telegram, "Enabled", switch_field("channels.telegram.enabled", "Telegram bot enabled"))
    token = add(channels, telegram, "Token variable", text_field("channels.telegram.token_env", "Bot token variable",
                                                                 placeholder="TELEGRAM_BOT_TOKEN"))
    token_hint = telegram.hint_of(token)

    def update_token_hint() -> None:
        name = str(token.value() or "")
        if config_reader.looks_like_secret(name):   # never repeated on screen
            token_hint.setText("This looks like the bot token itself: keep it in an environment variable (e.g. "
                               "TELEGRAM_BOT_TOKEN) and give that variable's NAME here.")
        elif name and (os.environ if environ is None else environ).get(name, "").strip():
            token_hint.setText(f"{name} is set where OpenHuman runs (the token stays there, never in this file).")
        elif name:
            token_hint.setText(f"The NAME of the variable that holds the bot token (from @BotFather); {name} is not "
                               "set where OpenHuman was started: set it, then start OpenHuman again.")
        else:
            token_hint.setText("The NAME of the environment variable that holds the bot token (from @BotFather).")
        token_hint.setVisible(True)

    token.edited.connect(update_token_hint)
    token.shown.connect(update_token_hint)
    add(channels, telegram, "Allowed chats", chat_ids_field("channels.telegram.allowed_chat_ids", "Allowed chat ids"),
        "Only these chat ids reach the assistant; separate them with commas.")
    add(channels, telegram, "Bot API", text_field("channels.telegram.api_url", "Bot API address",
                                                  placeholder="https://api.telegram.org"),
        "A self-hosted Bot API server works too.")
    web = page.form("Web app")
    add(channels, web, "Enabled", switch_field("channels.webapp.enabled", "Web app enabled"),
        "A chat page in your browser, on this computer only (tray menu: Open web app).")
    add(channels, web, "Port", int_field("channels.webapp.port", "Web app port", 0, 65535, special="any free port"))
    page.finish()

    reflection, page = section("reflection", "Reflection",
                               "The subconscious model looks back on what happened and steers the agent.")
    form = page.form()
    add(reflection, form, "Reflection", switch_field("reflection.enabled", "Reflect on a schedule"),
        "Needs a subconscious model (Models); skipped when nothing new happened.")
    add(reflection, form, "Schedule", text_field("reflection.schedule", "Reflection schedule",
                                                 placeholder="cron:0 3 * * *"),
        "A cron schedule in local time: minute hour day month weekday (cron:0 3 * * * is every day at 03:00).")
    page.finish()

    notifications, page = section("notifications", "Notifications",
                                  "Desktop notifications of new approval cards.")
    form = page.form()
    add(notifications, form, "Notifications", switch_field("notifications.enabled", "Show notifications"))
    add(notifications, form, "Quiet hours", text_field("notifications.quiet_hours", "Quiet hours",
                                                       placeholder="e.g. 22:00-07:00"),
        "No pop-ups in this span of local time (start-end, 24-hour clock); the cards wait in the tray menu.")
    page.finish()

    skills, page = section("skills", "Skills",
                           "Your own tools through MCP servers. A tool only reads when its server says so (or you "
                           "do below); every other tool writes, and writes need your request or a card.")
    servers = SkillsEditor(tools_of, environ)
    page.column.addWidget(servers.panel)
    page.column.addWidget(servers.error)
    skills.fields.append(servers)
    made_testers = add_world_forms(page, skills.fields, jobs, tester)  # mail, feeds, calendars, web, Slack
    if testers is not None:
        testers.update(made_testers)
    page.finish()

    advanced, page = section("advanced", "Advanced", "The agent's limits. The defaults suit most models.")
    form = page.form()
    add(advanced, form, "Steps per run", int_field("agent.step_limit", "Steps per run", 5, 100),
        "Node transitions per run; a run that needs more ends failed.")
    add(advanced, form, "Evict history at", float_field("agent.context_threshold", "Context threshold",
                                                        0.80, 0.90, 0.01),
        "Share of the reasoning model's window at which old history is evicted.")
    add(advanced, form, "Sub-tasks per plan", int_field("agent.max_subagents", "Sub-tasks per plan", 1, 16))
    add(advanced, form, "At once", int_field("agent.concurrent_subagents", "Sub-agents at once", 1, 16))
    add(advanced, form, "Rounds per sub-agent", int_field("agent.subagent_steps", "Rounds per sub-agent", 1, 50))
    add(advanced, form, "Run deadline", int_field("agent.run_deadline_seconds", "Run deadline", 30, 86_400,
                                                  suffix=" s"))
    add(advanced, form, "Model call timeout", int_field("agent.model_timeout_seconds", "Model call timeout",
                                                        5, 3_600, suffix=" s"))
    page.finish()
    return sections, tiers, autostart_row
