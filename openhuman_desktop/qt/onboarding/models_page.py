"""The set-up's models page: the installed models with their sizes, the recommended ones picked, downloads offered."""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from openhuman_desktop.llm.catalog import InstalledModel
from openhuman_desktop.llm.discovery import (
    SUGGESTIONS,
    FoundServer,
    Machine,
    Picks,
    Suggestion,
    small_model_advice,
    suggestions_for,
)
from openhuman_desktop.llm.pull import format_bytes
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.onboarding.pages import page_layout, paragraph

NOT_USED = "Not used"
TYPE_HINT = "or type a model name, e.g. gemma3:4b"
# What `ollama pull` takes: [namespace/]name[:tag] (the library's names, or a registry path).
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)*(?::[A-Za-z0-9][A-Za-z0-9._-]*)?")
TIER_HELP = {
    "local": "Looks at your tasks on every heartbeat and answers chat: a small, quick model.",
    "reasoning": "Plans and uses tools when the assistant acts for you: the largest model that runs well here.",
    "subconscious": "Now and then looks back on what the assistant did and steers it: the reasoning model suits it.",
    "embedding": "Optional: lets the assistant find memories by meaning, not only by their words.",
}
TITLES = {"local": "Quick model", "reasoning": "Reasoning model", "subconscious": "Reflection model",
          "embedding": "Memory vectors"}
OPTIONAL = ("subconscious", "embedding")   # tiers that may be "Not used"


@dataclass(frozen=True)
class ModelOption:
    """One entry of a model list: installed, or a suggested download of ``size_bytes``."""

    name: str
    needs_download: bool = False
    size_bytes: int | None = None


def option_text(model: InstalledModel) -> str:
    details = [format_bytes(model.size_bytes)] if model.size_bytes else []
    if model.parameter_size:
        details.append(f"{model.parameter_size} parameters")
    name = model.name.removesuffix(":latest")
    return f"{name}  ·  {'  ·  '.join(details)}" if details else name


class ModelsPage(QWidget):
    """A list per tier. ``picks()`` is what is chosen; ``downloads()`` what must be pulled first."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Models")
        layout = page_layout(self, "Models")
        self.server_label = paragraph("", self, muted=True)
        layout.addWidget(self.server_label)
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.setVerticalSpacing(max(4, em(self) // 4))
        form.setHorizontalSpacing(em(self))
        self.combos: dict[str, QComboBox] = {}
        for tier, title in TITLES.items():
            combo = QComboBox(self)
            combo.setAccessibleName(f"{title} ({tier} tier)")
            combo.setMinimumContentsLength(28)
            combo.currentIndexChanged.connect(self._on_combo_current_index_changed)
            combo.editTextChanged.connect(self._on_combo_edit_text_changed)
            self.combos[tier] = combo
            label = QLabel(f"{title}:", self)
            label.setBuddy(combo)
            column = QVBoxLayout()
            column.setSpacing(2)
            column.addWidget(combo)
            hint = MutedLabel(TIER_HELP[tier], self, factor=0.92)
            hint.setWordWrap(True)
            column.addWidget(hint)
            form.addRow(label, column)
        layout.addLayout(form)
        self.advice_label = paragraph("", self)   # what a very small model can and cannot do
        self.advice_label.setAccessibleName("About the chosen models")
        self.advice_label.hide()
        layout.addWidget(self.advice_label)
        self.download_label = paragraph("", self)
        self.download_label.setAccessibleName("Downloads")
        layout.addWidget(self.download_label)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        self._server: FoundServer | None = None
        self._machine: Machine | None = None

    def show_server(self, server: FoundServer, picks: Picks, machine: Machine | None = None) -> None:
        """Fill the lists from ``server``'s models (and downloads where it is an Ollama); select ``picks``;
        ``machine`` (this computer) is what the advice on very small models weighs."""
        self._server = server
        self._machine = machine
        self.error_label.clear_text()
        installed = len(server.models)
        where = f"{server.label} at {server.base_url}"
        if installed:
            more = " or type the name of any model of the Ollama library" if server.provider == "ollama" else ""
            self.server_label.setText(f"{where} has {installed} model{'s' if installed != 1 else ''}. "
                                      f"The recommended ones are picked; change them{more} if you like.")
        elif server.provider == "ollama":
            self.server_label.setText(f"{where} has no models yet. The suggested ones are downloaded when you "
                                      "press Next (you can pick others).")
        else:
            self.server_label.setText(f"{where} lists no models: load one in the server, then Search again.")
        can_pull = server.provider == "ollama"
        for tier, combo in self.combos.items():
            with QSignalBlocker(combo):  # filling the list is not the user's choice
                self._fill(combo, tier, server, can_pull)
        self._select("local", picks.local)
        self._select("reasoning", picks.reasoning)
        self._select("subconscious", picks.subconscious or NOT_USED)
        self._select("embedding", picks.embedding or NOT_USED)
        self._update_downloads()

    def _fill(self, combo: QComboBox, tier: str, server: FoundServer, can_pull: bool) -> None:
        combo.clear()
        combo.setEditable(can_pull)  # Ollama can download any model of its library: its name may be typed
        line = combo.lineEdit()
        if line is not None:
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            line.setPlaceholderText(TYPE_HINT)
            line.setAccessibleName(f"{combo.accessibleName()}: model name")
        models = server.embedding_models if tier == "embedding" else server.chat_models
        if tier in OPTIONAL:
            combo.addItem(NOT_USED, ModelOption(""))
        names = set()
        for model in models:
            combo.addItem(option_text(model), ModelOption(model.name, False, model.size_bytes))
            names.add(model.name.removesuffix(":latest"))
        if can_pull:
            offers = [s for s in _offers(tier) if s.name not in names]
            if offers and models:
                combo.insertSeparator(combo.count())
            for offer in offers:
                combo.addItem(f"{offer.name}  ·  download {format_bytes(offer.size_bytes)}",
                              ModelOption(offer.name, True, offer.size_bytes))
                combo.setItemData(combo.count() - 1, f"Not installed yet: {offer.why}", Qt.ItemDataRole.ToolTipRole)

    def _select(self, tier: str, name: str) -> None:
        combo = self.combos[tier]
        for index in range(combo.count()):
            option = combo.itemData(index)
            if isinstance(option, ModelOption) and (option.name == name or (name == NOT_USED and not option.name)):
                combo.setCurrentIndex(index)
                return

    def option(self, tier: str) -> ModelOption | None:
        """The chosen entry; a typed name is an installed model of that name, or a download of it."""
        combo = self.combos[tier]
        data = combo.currentData()
        typed = combo.currentText().strip()
        if combo.isEditable() and typed != combo.itemText(combo.currentIndex()):
            return self._typed(typed)
        return data if isinstance(data, ModelOption) and data.name else None

    def _typed(self, text: str) -> ModelOption | None:
        name = text.split("  ·  ", 1)[0].strip().removesuffix(":latest")
        if not name or name == NOT_USED or not _MODEL_NAME.fullmatch(name):
            return None
        for model in self._server.models if self._server is not None else ():
            if name == model.name.removesuffix(":latest"):
                return ModelOption(model.name, False, model.size_bytes)
        for offer in SUGGESTIONS:
            if name == offer.name:
                return ModelOption(offer.name, True, offer.size_bytes)
        return ModelOption(name, True, None)

    def picks(self) -> Picks | None:
        """What is chosen, or None while the quick or reasoning model is missing."""
        local, reasoning, subconscious, embedding = (
            self.option(t) for t in ("local", "reasoning", "subconscious", "embedding"))
        if local is None or reasoning is None:
            return None
        return Picks(local.name, reasoning.name, embedding.name if embedding else None, self.downloads(),
                     subconscious.name if subconscious else None)

    def downloads(self) -> tuple[str, ...]:
        """Models to pull before they are used, each once, in the order local, reasoning, embedding."""
        names = [o.name for o in (self.option(t) for t in self.combos) if o is not None and o.needs_download]
        return tuple(dict.fromkeys(names))

    def _download_bytes(self) -> int:
        sizes = {o.name: o.size_bytes or 0 for o in (self.option(t) for t in self.combos)
                 if o is not None and o.needs_download}
        return sum(sizes.values())

    def _update_advice(self) -> None:
        chosen = {tier: option.name for tier in ("local", "reasoning", "subconscious")
                  if (option := self.option(tier)) is not None}
        advice = small_model_advice(self._server, chosen, self._machine) if self._server is not None else None
        self.advice_label.setText(advice or "")
        self.advice_label.setVisible(bool(advice))

    def _update_downloads(self) -> None:
        self._update_advice()
        names = self.downloads()
        if names:
            unknown = any(o.size_bytes is None for o in (self.option(t) for t in self.combos)
                          if o is not None and o.needs_download)
            size = "its size shows once it starts" if unknown else format_bytes(self._download_bytes())
            self.download_label.setText(f"Next downloads {', '.join(names)} ({size}) into Ollama; it can be paused "
                                        "and resumed.")
        self.download_label.setVisible(bool(names))
        self.changed.emit()

    def show_problem(self, text: str) -> None:
        self.error_label.show_text(text)

    def _on_combo_current_index_changed(self, _index: int) -> None:
        self.error_label.clear_text()
        self._update_downloads()

    def _on_combo_edit_text_changed(self, _text: str) -> None:
        self.error_label.clear_text()
        self._update_downloads()


def _offers(tier: str) -> list[Suggestion]:
    """The downloads a tier's list offers: its own suggestions first, then the other chat models' (the
    recommendation may pick any that this computer runs well), each once."""
    if tier == "embedding":
        return list(suggestions_for("embedding"))
    own = "reasoning" if tier == "subconscious" else tier
    ordered = [*suggestions_for(own), *suggestions_for("local"), *suggestions_for("reasoning")]
    first: dict[str, Suggestion] = {}
    for offer in ordered:
        first.setdefault(offer.name, offer)
    return list(first.values())
