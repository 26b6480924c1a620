"""One model tier on the Settings form: provider, a model picked from the server's list, base URL, key variable."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.config import ModelSettings
from openhuman_desktop.config_edit import REMOVE
from openhuman_desktop.config_reader import looks_like_secret
from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.catalog import InstalledModel
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import AccentLabel, ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.spinner import Spinner
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch
from openhuman_desktop.qt.settings.fields import Field, Form, guard_wheel

PASTED_KEY = ("This looks like the key itself: keep the key in an environment variable (e.g. OPENAI_API_KEY) "
              "and give that variable's NAME here.")
Lister = Callable[..., Awaitable[list[InstalledModel]]]  # catalog.list_models(provider, base_url, api_key_env=)

TIERS: dict[str, tuple[str, str]] = {
    "local": ("Local model", "Quick work: evaluating tasks, short answers, the agent's front desk."),
    "reasoning": ("Reasoning model", "The agent's plans and the sub-agents that use tools."),
    "subconscious": ("Subconscious model", "Deep reflection that steers the agent (optional)."),
    "embedding": ("Embedding model", "Vectors for long-term memory search (optional)."),
}
OPTIONAL_TIERS = ("subconscious", "embedding")
PROVIDERS = {"ollama": "Ollama", "openai": "OpenAI-compatible"}
KEYS = ("provider", "model", "base_url", "api_key_env")


def size_text(size: int | None) -> str:
    """``2_019_393_189`` → ``"2.0 GB"``."""
    if size is None:
        return ""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def describe_model(model: InstalledModel) -> str:
    """What the list says about a model: size, parameters, quantization."""
    parts = [size_text(model.size_bytes)]
    if model.parameter_size:
        parts.append(f"{model.parameter_size} parameters")
    parts += [model.quantization or "", model.family or ""]
    return " · ".join(part for part in parts if part)


class TierEditor(Field):
    """The fields of ``[models.<tier>]`` as one setting; an optional tier can be switched to "not used".

    Its value is None (not used) or a dict of the four keys (empty text: not set). A used tier saves as
    per-key changes; a tier switched on becomes a new table and one switched off is removed.
    """

    def __init__(self, tier: str, jobs: Jobs, lister: Lister, ollama_host: Callable[[], str],
                 environ: Mapping[str, str] | None = None) -> None:
        panel = PanelFrame(role=QPalette.ColorRole.Window)  # inputs (Base) stand out in light and dark
        super().__init__(f"models.{tier}", panel, self._current, self._show)
        self.panel = panel
        self.tier = tier
        self.is_optional = tier in OPTIONAL_TIERS
        self._jobs = jobs
        self._lister = lister
        self._ollama_host = ollama_host
        self._environ = environ
        self._listed: dict[str, InstalledModel] = {}
        self._listed_from: tuple[str, str, str] | None = None
        title, description = TIERS[tier]
        unit = em(self.panel)
        outer = QVBoxLayout(self.panel)
        outer.setContentsMargins(unit, unit * 3 // 4, unit, unit * 3 // 4)
        outer.setSpacing(max(4, unit // 3))
        top = QHBoxLayout()
        top.addWidget(SectionHeader(title, self.panel))
        top.addStretch(1)
        self.used_switch = ToggleSwitch(self.panel)
        self.used_switch.setAccessibleName(f"Use a {title.lower()}")
        self.used_switch.setToolTip("Off: this tier is not used (its table is removed from config.toml)")
        self.used_switch.setVisible(self.is_optional)
        self.used_switch.toggled.connect(self._on_used_switch_toggled)
        top.addWidget(self.used_switch)
        outer.addLayout(top)
        outer.addWidget(MutedLabel(description, self.panel, factor=0.9))
        self.unused_label = MutedLabel("Not used. Switch it on to pick a server and a model.", self.panel)
        outer.addWidget(self.unused_label)
        self.body = QWidget(self.panel)
        outer.addWidget(self.body)
        form = Form(self.body)
        body_layout = QVBoxLayout(self.body)
        body_layout.setContentsMargins(0, max(4, unit // 3), 0, 0)
        body_layout.addWidget(form)

        self.provider_combo = QComboBox(self.body)
        for value, text in PROVIDERS.items():
            self.provider_combo.addItem(text, value)
        self.provider_combo.setAccessibleName(f"{title}: provider")
        guard_wheel(self.provider_combo)
        self.provider_combo.currentIndexChanged.connect(self._on_provider_combo_changed)

        model_row = QWidget(self.body)
        model_row.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        row = QHBoxLayout(model_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.model_combo = QComboBox(model_row)
        self.model_combo.setEditable(True)
        self.model_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model_combo.setAccessibleName(f"{title}: model")
        guard_wheel(self.model_combo)
        self.model_combo.setMinimumWidth(unit * 18)
        self.model_combo.setToolTip("Pick a model the server has, or type a name")
        self.model_combo.editTextChanged.connect(self._on_model_combo_edit_text_changed)
        row.addWidget(self.model_combo, 1)
        self.spinner = Spinner(model_row)
        row.addWidget(self.spinner)
        self.reload_button = QToolButton(model_row)
        self.reload_button.setText("↻")
        self.reload_button.setAccessibleName(f"{title}: ask the server for its models again")
        self.reload_button.setToolTip("Ask the server for its models again")
        self.reload_button.clicked.connect(self._on_reload_button_clicked)
        row.addWidget(self.reload_button)

        self.base_url_edit = QLineEdit(self.body)
        self.base_url_edit.setAccessibleName(f"{title}: base URL")
        self.base_url_edit.setClearButtonEnabled(True)
        self.base_url_edit.textEdited.connect(self._on_any_edited)
        self.base_url_edit.editingFinished.connect(self._on_address_editing_finished)
        self.key_edit = QLineEdit(self.body)
        self.key_edit.setAccessibleName(f"{title}: API key variable")
        self.key_edit.setPlaceholderText("e.g. OPENAI_API_KEY (the variable's NAME, not the key)")
        self.key_edit.setClearButtonEnabled(True)
        self.key_edit.textEdited.connect(self._on_key_edit_text_edited)
        self.key_edit.editingFinished.connect(self._on_address_editing_finished)

        self.errors: dict[str, ErrorLabel] = {}
        form.add("Provider", self.provider_combo)
        self.model_hint = form.add("Model", model_row, " ")
        self.list_status = AccentLabel("amber", self.body)
        self.model_hint.parentWidget().layout().addWidget(self.list_status)  # type: ignore[union-attr]
        self.url_hint = form.add("Base URL", self.base_url_edit, " ")
        self.key_hint = form.add("API key variable", self.key_edit, " ")
        for name, widget in (("provider", self.provider_combo), ("model", model_row),
                             ("base_url", self.base_url_edit), ("api_key_env", self.key_edit)):
            label = ErrorLabel(self.body)
            self.errors[name] = label
            cell = widget.parentWidget()
            cell.layout().addWidget(label)  # type: ignore[union-attr]
        tab_order = [self.used_switch, self.provider_combo, self.model_combo, self.reload_button,
                     self.base_url_edit, self.key_edit]
        for first, second in zip(tab_order, tab_order[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # --- Field ------------------------------------------------------------------------------------

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, *(f"{self.key}.{name}" for name in (*KEYS, "context_window")))

    def load_settings(self, settings: ModelSettings | None) -> None:
        if settings is None:
            self.load(None)
        else:
            self.load({"provider": settings.provider, "model": settings.model, "base_url": settings.base_url or "",
                       "api_key_env": settings.api_key_env or ""})

    def _current(self) -> dict[str, str] | None:
        if self.is_optional and not self.used_switch.isChecked():
            return None
        return {"provider": str(self.provider_combo.currentData()), "model": self.model_combo.currentText().strip(),
                "base_url": self.base_url_edit.text().strip(), "api_key_env": self.key_edit.text().strip()}

    def _show(self, value: dict[str, str] | None) -> None:
        blockers = [QSignalBlocker(widget) for widget in (self.used_switch, self.provider_combo, self.model_combo)]
        shown = value or {"provider": "ollama", "model": "", "base_url": "", "api_key_env": ""}
        self.used_switch.setChecked(value is not None)
        self.provider_combo.setCurrentIndex(max(0, self.provider_combo.findData(shown["provider"])))
        self.model_combo.setEditText(shown["model"])
        self.base_url_edit.setText(shown["base_url"])
        self.key_edit.setText(shown["api_key_env"])
        del blockers
        self._show_used(value is not None or not self.is_optional)
        self._update_hints()

    def _show_used(self, used: bool) -> None:
        self.body.setVisible(used)
        self.unused_label.setVisible(not used)

    def changes(self) -> dict[str, Any]:
        old, new = self.initial, self.value()
        if old == new:
            return {}
        if new is None:
            return {self.key: REMOVE}
        if old is None:
            return {self.key: {name: value for name, value in new.items() if value or name == "model"}}
        changed: dict[str, Any] = {}
        for name in KEYS:
            if new[name] != old[name]:
                removes = name in ("base_url", "api_key_env") and not new[name]
                changed[f"{self.key}.{name}"] = REMOVE if removes else new[name]
        return changed

    def revert(self) -> None:
        super().revert()
        self.clear_errors()

    def show_error(self, key: str, text: str) -> QWidget:
        """Show the loader's sentence under the field ``key`` names; returns the widget to focus."""
        name = key.rsplit(".", 1)[-1] if key != self.key else "model"
        label = self.errors.get(name, self.errors["model"])
        label.show_text(text)
        widgets = {"provider": self.provider_combo, "model": self.model_combo, "base_url": self.base_url_edit,
                   "api_key_env": self.key_edit}
        return widgets.get(name, self.model_combo)

    def clear_errors(self) -> None:
        for label in self.errors.values():
            label.clear_text()

    # --- the server's model list ----------------------------------------------------------------

    def address(self) -> str | None:
        """Where this tier's models are listed: its base URL, or the Ollama host for an Ollama tier."""
        url = self.base_url_edit.text().strip()
        if url:
            return url
        return self._ollama_host() if self.provider_combo.currentData() == "ollama" else None

    def request_models(self, *, force: bool = False) -> None:
        """Ask the server for its models in the background (the form stays usable meanwhile)."""
        if self.is_optional and not self.used_switch.isChecked():
            return
        provider = str(self.provider_combo.currentData())
        address = self.address()
        source = (provider, address or "", self.key_edit.text().strip())
        if source == self._listed_from and not force:
            return
        self._listed_from = source
        if address is None:
            self._listed = {}
            self.list_status.show_text("Give the server's base URL to see its models.")
            return
        if looks_like_secret(source[2]):   # not sent as a variable name, nor printed back in the list's error
            self._listed = {}
            self.list_status.show_text("Give the API key variable's name (below) to see the server's models.")
            return
        self._jobs.spawn(self.load_models(provider, address, source[2] or None), name=f"settings-models-{self.tier}",
                         group=f"settings-models-{self.tier}")

    async def load_models(self, provider: str, address: str, api_key_env: str | None) -> None:
        self.spinner.start()
        self.list_status.set_accent("grey")
        self.list_status.show_text(f"Asking {address} for its models…")
        try:
            models = await self._lister(provider, address, api_key_env=api_key_env)
        except LlmUnavailable as exc:
            self._listed = {}
            self.list_status.set_accent("amber")
            self.list_status.show_text(str(exc))
            return
        finally:
            self.spinner.stop()
        wanted = [m for m in models if m.is_embedding == (self.tier == "embedding")]
        others = [m for m in models if m not in wanted]
        shown = wanted + (others if self.tier == "embedding" or not wanted else [])
        self._listed = {model.name: model for model in shown}
        text = self.model_combo.currentText()
        with QSignalBlocker(self.model_combo):
            self.model_combo.clear()
            for model in shown:
                self.model_combo.addItem(model.name)
                self.model_combo.setItemData(self.model_combo.count() - 1, describe_model(model),
                                             Qt.ItemDataRole.ToolTipRole)
            self.model_combo.setEditText(text)
        count = len(shown)
        if count:
            self.list_status.clear_text()
        else:
            self.list_status.set_accent("amber")
            self.list_status.show_text(f"{address} has no models yet"
                                       + (": pull one with `ollama pull <name>`." if provider == "ollama" else "."))
        self._update_hints()

    @property
    def listed_models(self) -> list[str]:
        return [self.model_combo.itemText(index) for index in range(self.model_combo.count())]

    # --- hints and slots --------------------------------------------------------------------------

    def _update_hints(self) -> None:
        provider = self.provider_combo.currentData()
        self.base_url_edit.setPlaceholderText(
            f"{self._ollama_host()} (the Ollama host)" if provider == "ollama" else "e.g. http://127.0.0.1:8080/v1")
        self.url_hint.setText("Empty: the Ollama host above." if provider == "ollama"
                              else "The endpoint that ends in /v1 (llama.cpp, LM Studio, vLLM, OpenAI).")
        self.url_hint.setVisible(True)
        name = self.key_edit.text().strip()
        environ = os.environ if self._environ is None else self._environ
        if not name:
            self.key_hint.setText("None: the server needs no key.")
        elif looks_like_secret(name):   # never repeated on screen: it may be shared or screenshotted
            self.key_hint.setText(PASTED_KEY)
        elif environ.get(name, "").strip():
            self.key_hint.setText(f"{name} is set where OpenHuman runs (the key stays there, never in this file).")
        else:
            self.key_hint.setText(f"{name} is not set where OpenHuman was started: set it, then start OpenHuman "
                                  "again.")
        self.key_hint.setVisible(True)
        model = self._listed.get(self.model_combo.currentText().strip())
        if model is not None:
            self.model_hint.setText(describe_model(model) or (
                "Installed on the server." if provider == "ollama" else "Offered by the server."))
        elif self._listed and self.model_combo.currentText().strip():
            self.model_hint.setText("Not on this server" + (
                ": pull it first (`ollama pull <name>`), or pick one from the list."
                if provider == "ollama" else "; pick one from the list."))
        else:
            self.model_hint.setText("")
        self.model_hint.setVisible(bool(self.model_hint.text()))

    def _on_any_edited(self) -> None:
        self._update_hints()
        self.edited.emit()

    def _on_provider_combo_changed(self, _index: int) -> None:
        self._on_any_edited()
        self.request_models()

    def _on_model_combo_edit_text_changed(self, _text: str) -> None:
        self._on_any_edited()

    def _on_key_edit_text_edited(self, _text: str) -> None:
        self._on_any_edited()

    def _on_address_editing_finished(self) -> None:
        self.request_models()

    def _on_reload_button_clicked(self) -> None:
        self.request_models(force=True)

    def _on_used_switch_toggled(self, checked: bool) -> None:
        self._show_used(checked)
        if checked and not self.model_combo.currentText():
            self.request_models()
        self._on_any_edited()
