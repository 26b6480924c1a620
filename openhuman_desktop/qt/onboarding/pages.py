"""The set-up's simple pages: welcome (the tray icon and approval cards in two sentences), server, done."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.llm.discovery import FoundServer
from openhuman_desktop.llm.pull import format_bytes
from openhuman_desktop.qt import icons
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.spinner import Spinner
from openhuman_desktop.qt.intelligence.theme import em

TRAY_SENTENCE = ("OpenHuman lives in your system tray: its icon shows whether the assistant is idle, thinking or "
                 "needs you (a red badge counts what waits), and a click opens the Intelligence window.")
CARDS_SENTENCE = ("Before it does anything you did not ask for, it shows an approval card, and nothing happens "
                  "until you press Go ahead (or Skip).")
NO_SERVER = ("No model server answers on this computer. Install Ollama from ollama.com/download and start it "
             "(`ollama serve`), then press Search again, or type the address of your server below.")
_ROLE_SERVER = Qt.ItemDataRole.UserRole + 1


def paragraph(text: str, parent: QWidget | None = None, *, muted: bool = False) -> QLabel:
    label: QLabel = MutedLabel(text, parent) if muted else QLabel(text, parent)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def page_layout(page: QWidget, title: str) -> QVBoxLayout:
    layout = QVBoxLayout(page)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(max(8, em(page) // 2))
    layout.addWidget(SectionHeader(title, page))
    return layout


class WelcomePage(QWidget):
    """What OpenHuman is, the tray icon's states and the approval cards."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Welcome")
        layout = page_layout(self, "Welcome to OpenHuman")
        self.tray_text = paragraph(TRAY_SENTENCE, self)
        self.cards_text = paragraph(CARDS_SENTENCE, self)
        layout.addWidget(self.tray_text)
        layout.addWidget(self._legend())
        layout.addWidget(self.cards_text)
        layout.addSpacing(em(self) // 2)
        layout.addWidget(paragraph("Next, OpenHuman finds the model server on this computer and you pick its models. "
                                   "You can skip this and come back from the tray menu (Set up models…).",
                                   self, muted=True))
        layout.addStretch(1)

    def _legend(self) -> QWidget:
        panel = PanelFrame(self)
        row = QHBoxLayout(panel)
        pad = em(self) // 2
        row.setContentsMargins(pad * 2, pad, pad * 2, pad)
        row.setSpacing(pad * 3)
        side = round(em(self) * 1.6)
        for state, count, words in ((icons.IDLE, 0, "idle"), (icons.THINKING, 0, "thinking"),
                                    (icons.ATTENTION, 2, "needs you")):
            item = QHBoxLayout()
            item.setSpacing(pad)
            picture = QLabel(panel)
            picture.setPixmap(icons.tray_icon(state, count).pixmap(side, side))
            picture.setAccessibleName(f"Tray icon: {words}")
            item.addWidget(picture)
            item.addWidget(QLabel(words, panel))
            row.addLayout(item)
        row.addStretch(1)
        return panel


class ServerPage(QWidget):
    """The servers found (pick one), or how to start Ollama; an address can be typed and checked."""

    selection_changed = Signal()
    search_requested = Signal()
    address_submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Model server")
        layout = page_layout(self, "Model server")
        status_row = QHBoxLayout()
        self.spinner = Spinner(self)
        self.status_label = paragraph("Looking for model servers on this computer…", self, muted=True)
        status_row.addWidget(self.spinner, 0, Qt.AlignmentFlag.AlignVCenter)
        status_row.addWidget(self.status_label, 1)
        layout.addLayout(status_row)
        self.server_list = QListWidget(self)
        self.server_list.setAccessibleName("Model servers found")
        self.server_list.setWordWrap(True)
        self.server_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.server_list.setSpacing(3)
        self.server_list.currentItemChanged.connect(self._on_server_list_current_item_changed)
        self.server_list.setMaximumHeight(em(self) * 8)  # a few servers at most: no empty well below them
        layout.addWidget(self.server_list)
        self.hint_label = paragraph(NO_SERVER, self)
        self.hint_label.setAccessibleName("How to start a model server")
        self.hint_label.hide()
        layout.addWidget(self.hint_label)
        address_row = QHBoxLayout()
        self.address_edit = QLineEdit(self)
        self.address_edit.setPlaceholderText("Address of your server, e.g. 192.168.1.20:11434")
        self.address_edit.setAccessibleName("Server address")
        self.address_edit.returnPressed.connect(self._on_check_button_clicked)
        self.check_button = QPushButton("Check", self)
        self.check_button.setAccessibleName("Check this address")
        self.check_button.clicked.connect(self._on_check_button_clicked)
        self.search_button = QPushButton("Search again", self)
        self.search_button.clicked.connect(self.search_requested.emit)
        address_row.addWidget(self.address_edit, 1)
        address_row.addWidget(self.check_button)
        address_row.addWidget(self.search_button)
        layout.addLayout(address_row)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        layout.addStretch(1)

    def set_searching(self) -> None:
        self.spinner.start()
        self.status_label.setText("Looking for model servers on this computer…")
        self.error_label.clear_text()
        self.search_button.setEnabled(False)

    def show_servers(self, servers: Sequence[FoundServer], prefer: FoundServer | None = None) -> None:
        """List ``servers`` (reachable ones selectable); the first reachable one (or ``prefer``) is selected."""
        self.spinner.stop()
        self.search_button.setEnabled(True)
        self.server_list.clear()
        first: QListWidgetItem | None = None
        reachable = [server for server in servers if server.is_reachable]
        for server in reachable or servers:  # the places that did not answer matter only when none did
            item = QListWidgetItem(server_text(server), self.server_list)
            item.setData(_ROLE_SERVER, server)
            item.setToolTip(server.problem or f"Found at {server.base_url} ({server.candidate.source})")
            if not server.is_reachable:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            elif first is None or (prefer is not None and server.base_url == prefer.base_url):
                first = item
        self.hint_label.setVisible(not reachable)
        if reachable:
            count = len(reachable)
            self.status_label.setText("Found one model server." if count == 1 else f"Found {count} model servers: "
                                      "pick the one to use.")
        else:
            self.status_label.setText("No model server found.")
        if first is not None:
            self.server_list.setCurrentItem(first)
        self.selection_changed.emit()

    def add_server(self, server: FoundServer) -> None:
        """A server the user's address reached: listed first and selected."""
        self.error_label.clear_text()
        if not server.is_reachable:
            self.error_label.show_text(server.problem or "")
            return
        servers = [server] + [s for s in self.servers() if s.base_url != server.base_url]
        self.show_servers(servers, prefer=server)

    def show_problem(self, text: str) -> None:
        self.error_label.show_text(text)

    def servers(self) -> list[FoundServer]:
        found = (self.server_list.item(row).data(_ROLE_SERVER) for row in range(self.server_list.count()))
        return [server for server in found if isinstance(server, FoundServer)]

    def selected(self) -> FoundServer | None:
        item = self.server_list.currentItem()
        server = item.data(_ROLE_SERVER) if item is not None else None
        return server if isinstance(server, FoundServer) and server.is_reachable else None

    def _on_server_list_current_item_changed(self, *_items: object) -> None:
        self.selection_changed.emit()

    def _on_check_button_clicked(self) -> None:
        self.error_label.clear_text()
        self.address_submitted.emit(self.address_edit.text())


def server_text(server: FoundServer) -> str:
    """Two lines for the list: what and where, then its models (or why not)."""
    head = f"{server.label} — {server.base_url}"
    if not server.is_reachable:
        return f"{head}\n{server.problem}"
    count = len(server.models)
    if count == 0:
        return f"{head}\nNo models installed yet"
    sizes = [model.size_bytes for model in server.models if model.size_bytes]
    size = f", {format_bytes(sum(sizes))}" if sizes else ""
    names = ", ".join(model.name.removesuffix(":latest") for model in server.models[:3])
    more = f" and {count - 3} more" if count > 3 else ""
    return f"{head}\n{count} model{'s' if count != 1 else ''}{size}: {names}{more}"


class DonePage(QWidget):
    """What was set up and where it is written."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Done")
        layout = page_layout(self, "You are set up")
        layout.addWidget(paragraph("OpenHuman uses these models from now on:", self))
        self.summary = PanelFrame(self)
        self.grid = QGridLayout(self.summary)
        pad = em(self) // 2
        self.grid.setContentsMargins(pad * 2, pad, pad * 2, pad)
        self.grid.setHorizontalSpacing(pad * 3)
        self.grid.setColumnStretch(1, 1)
        layout.addWidget(self.summary)
        self.note_label = paragraph("", self, muted=True)
        layout.addWidget(self.note_label)
        layout.addStretch(1)

    def show_summary(self, rows: Sequence[tuple[str, str]], note: str) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for row, (what, which) in enumerate(rows):
            self.grid.addWidget(MutedLabel(what, self.summary), row, 0)
            value = QLabel(which, self.summary)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setAccessibleName(what)
            self.grid.addWidget(value, row, 1)
        self.note_label.setText(note)

    def summary_text(self) -> str:
        """The summary as lines ("Quick model: llama3.2:3b"), for tests and screen readers."""
        items = (self.grid.itemAt(i) for i in range(self.grid.count()))
        labels = [item.widget() for item in items if item is not None]
        texts = [label.text() for label in labels if isinstance(label, QLabel)]
        return "\n".join(f"{texts[i]}: {texts[i + 1]}" for i in range(0, len(texts) - 1, 2))
