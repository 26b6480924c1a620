"""The first-run set-up window: welcome, model server, models, download, done — skippable at every step.

It never blocks: servers are looked for in the background from the moment it opens, downloads stream their
progress, and the window is non-modal (the tray and the Intelligence window keep working). What it writes goes
through :class:`~openhuman_desktop.config_edit.ConfigEdit`; the running app applies it like any other edit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from openhuman_desktop import config
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.llm import discovery
from openhuman_desktop.llm.discovery import FoundServer
from openhuman_desktop.llm.pull import ProgressCallback, PullFailed, PullProgress, pull_model
from openhuman_desktop.qt import icons, placement
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.theme import em, make_primary, retheme, scaled_font
from openhuman_desktop.qt.onboarding.models_page import NOT_USED, ModelsPage
from openhuman_desktop.qt.onboarding.pages import DonePage, ServerPage, WelcomePage
from openhuman_desktop.qt.onboarding.pull_page import PullPage

if TYPE_CHECKING:
    from openhuman_desktop.qt.onboarding.plan import Choice

log = logging.getLogger(__name__)

PAGES = ("welcome", "server", "models", "pull", "done")
Discover = Callable[..., Awaitable[list[FoundServer]]]
Probe = Callable[[str], Awaitable[FoundServer]]
Pull = Callable[[str, str, ProgressCallback], Awaitable[PullProgress]]


class OnboardingWindow(QWidget):
    """The set-up, one page at a time; ``finished`` carries the saved :class:`Choice` (None when skipped).

    Args:
        settings: the settings in force (``services.settings``), read when recommending and when saving.
        config_file: the workspace's config.toml.
        environ: for ``OLLAMA_HOST`` and the configuration check (None: the process's).
        discover, probe, pull: the Qt-free steps (injected by tests and the bench).
        machine: this computer's memory and cores, which the recommendations weigh (None: read them).
    """

    finished = Signal(object)

    def __init__(self, settings: Callable[[], config.Settings], config_file: Path, *,
                 environ: Mapping[str, str] | None = None, discover: Discover = discovery.discover,
                 probe: Probe = discovery.probe_address, pull: Pull = pull_model,
                 machine: discovery.Machine | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.machine = machine or discovery.this_machine()
        self._settings = settings
        self._config_file = config_file
        self._environ = environ
        self._discover = discover
        self._probe = probe
        self._pull = pull
        self.jobs = Jobs()
        self.choice: Choice | None = None
        self._pulled: set[str] = set()
        self._downloads: list[str] = []
        self._use_task: asyncio.Task[Any] | None = None
        self._last_progress: PullProgress | None = None
        self._is_pulling = False
        self._is_saving = False
        self._finished = False
        self._announced = False
        self.setWindowTitle("Set up OpenHuman")
        self.setAccessibleName("Set up OpenHuman")
        self.setWindowIcon(icons.app_icon())
        self._build()
        self.resize(em(self) * 44, em(self) * 35)   # the models page: four lists, their hints and advice
        self.show_page("welcome")
        self.jobs.spawn(self.search(), name="onboarding-search", group="search")

    # --- layout -----------------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        pad = em(self)
        outer.setContentsMargins(round(pad * 1.4), pad, round(pad * 1.4), pad)
        outer.setSpacing(pad)
        header = QHBoxLayout()
        logo = QLabel(self)
        logo.setPixmap(icons.app_icon().pixmap(round(pad * 1.8), round(pad * 1.8)))
        logo.setAccessibleName("OpenHuman")
        title = QLabel("OpenHuman set-up", self)
        title.setFont(scaled_font(title, 1.05, bold=True))
        self.step_label = MutedLabel("", self)
        self.step_label.setAccessibleName("Step")
        header.addWidget(logo)
        header.addWidget(title)
        header.addStretch(1)
        header.addWidget(self.step_label)
        outer.addLayout(header)
        self.stack = QStackedWidget(self)
        self.welcome_page = WelcomePage(self.stack)
        self.server_page = ServerPage(self.stack)
        self.models_page = ModelsPage(self.stack)
        self.pull_page = PullPage(self.stack)
        self.done_page = DonePage(self.stack)
        for page in (self.welcome_page, self.server_page, self.models_page, self.pull_page, self.done_page):
            self.stack.addWidget(page)
        outer.addWidget(self.stack, 1)
        footer = QHBoxLayout()
        self.skip_button = QPushButton("Skip for now", self)
        self.skip_button.setToolTip("Close the set-up; open it again from the tray menu (Set up models…)")
        self.back_button = QPushButton("Back", self)
        self.next_button = QPushButton("Next", self)
        self.next_button.setDefault(True)
        make_primary(self.next_button)
        footer.addWidget(self.skip_button)
        footer.addStretch(1)
        footer.addWidget(self.back_button)
        footer.addWidget(self.next_button)
        outer.addLayout(footer)
        self.skip_button.clicked.connect(self._on_skip_button_clicked)
        self.back_button.clicked.connect(self._on_back_button_clicked)
        self.next_button.clicked.connect(self._on_next_button_clicked)
        self.server_page.selection_changed.connect(self._update_buttons)
        self.server_page.search_requested.connect(self._on_server_page_search_requested)
        self.server_page.address_submitted.connect(self._on_server_page_address_submitted)
        self.models_page.changed.connect(self._update_buttons)
        self.pull_page.cancel_requested.connect(self._on_pull_page_cancel_requested)
        self.pull_page.resume_requested.connect(self._on_pull_page_resume_requested)

    # --- pages ------------------------------------------------------------------------------------------

    @property
    def page_name(self) -> str:
        return PAGES[self.stack.currentIndex()]

    def show_page(self, name: str) -> None:
        self.stack.setCurrentIndex(PAGES.index(name))
        number = {"welcome": 1, "server": 2, "models": 3, "pull": 3, "done": 4}[name]
        self.step_label.setText(f"Step {number} of 4")
        self._update_buttons()
        focus = {"welcome": self.next_button, "server": self.server_page.server_list,
                 "models": self.models_page.combos["local"], "pull": self.pull_page.cancel_button,
                 "done": self.next_button}[name]
        focus.setFocus()

    def _update_buttons(self) -> None:
        page = self.page_name
        busy = self._is_pulling or self._is_saving
        self.skip_button.setVisible(page != "done")
        self.back_button.setVisible(page not in ("welcome", "done"))
        self.back_button.setEnabled(not busy)
        text, enabled = "Next", True
        if page == "server":
            enabled = self.server_page.selected() is not None
        elif page == "models":
            picks = self.models_page.picks()
            enabled = picks is not None and not busy
            text = "Download and use" if picks is not None and picks.to_download else "Use these models"
        elif page == "pull":
            text, enabled = "Use these models", False  # the download moves on by itself when it is done
        elif page == "done":
            text = "Close"
        self.next_button.setText(text)
        self.next_button.setEnabled(enabled)
        self.next_button.setVisible(page != "pull")

    def _on_next_button_clicked(self) -> None:
        page = self.page_name
        if page == "welcome":
            self.show_page("server")
        elif page == "server":
            server = self.server_page.selected()
            if server is not None:
                picks = discovery.recommend(server, self._settings(), self.machine)
                self.models_page.show_server(server, picks, self.machine)
                self.show_page("models")
        elif page == "models":
            self.jobs.spawn(self.use_models(), name="onboarding-use", group="use")
        elif page == "done":
            self.close()

    def _on_back_button_clicked(self) -> None:
        previous = {"server": "welcome", "models": "server", "pull": "models"}.get(self.page_name)
        if previous is not None and not self._is_pulling:
            self.show_page(previous)

    def _on_skip_button_clicked(self) -> None:
        log.info("first-run set-up skipped on the %s page", self.page_name)
        self.close()

    # --- servers ----------------------------------------------------------------------------------------

    def _on_server_page_search_requested(self) -> None:
        self.jobs.spawn(self.search(), name="onboarding-search", group="search")

    def _on_server_page_address_submitted(self, text: str) -> None:
        self.jobs.spawn(self.check_address(text), name="onboarding-address", group="search")

    async def search(self) -> None:
        """Look for servers (all places at once) and list what answered."""
        self.server_page.set_searching()
        servers = await self._discover(self._settings(), environ=self._environ)
        self.server_page.show_servers(servers)
        log.info("set-up found %d model server(s)", sum(s.is_reachable for s in servers))

    async def check_address(self, text: str) -> None:
        """Try the address the user typed (Ollama, then OpenAI-compatible)."""
        self.server_page.check_button.setEnabled(False)
        try:
            self.server_page.add_server(await self._probe(text))
        finally:
            self.server_page.check_button.setEnabled(True)

    # --- models, downloads and saving -------------------------------------------------------------------

    async def use_models(self) -> None:
        """Download what is missing, then save the choice and show what was set up."""
        server = self.server_page.selected()
        picks = self.models_page.picks()
        if server is None or picks is None:
            return
        from openhuman_desktop.qt.onboarding.plan import Choice

        embedding = picks.embedding if picks.embedding and picks.embedding != NOT_USED else None
        reflection = picks.subconscious if picks.subconscious and picks.subconscious != NOT_USED else None
        self.choice = Choice(server, picks.local, picks.reasoning, embedding, reflection)
        self._downloads = [name for name in picks.to_download if name not in self._pulled]
        if self._downloads:
            self.show_page("pull")
            if not await self.run_downloads():
                return
        await self.save()

    async def run_downloads(self) -> bool:
        """Pull each missing model in turn; False when one failed or was cancelled (Resume starts here again)."""
        choice = self.choice
        if choice is None:
            return False
        names = self._downloads
        self._use_task = asyncio.current_task()  # what Cancel cancels
        self._is_pulling = True
        self._update_buttons()
        try:
            for number, name in enumerate(names, 1):
                if name in self._pulled:
                    continue
                self._last_progress = None
                self.pull_page.start(name, number, len(names))
                try:
                    await self._pull(choice.server.base_url, name, self._on_pull_progress)
                except PullFailed as exc:
                    log.warning("pull of %s failed: %s", name, str(exc))
                    self.pull_page.show_failure(exc)
                    return False
                except asyncio.CancelledError:
                    self.pull_page.show_cancelled(self._last_progress)
                    raise
                self._pulled.add(name)
        finally:
            self._is_pulling = False
            self._update_buttons()
        return True

    def _on_pull_progress(self, progress: PullProgress) -> None:
        self._last_progress = progress
        self.pull_page.show_progress(progress)

    def _on_pull_page_cancel_requested(self) -> None:
        self.pull_page.cancel_button.setEnabled(False)
        self.cancel_download()

    def cancel_download(self) -> None:
        """Stop the download in flight (its stream is closed; Ollama keeps the bytes for a resume)."""
        task = self._use_task
        if task is not None and not task.done():
            task.cancel()

    def _on_pull_page_resume_requested(self) -> None:
        self.jobs.spawn(self.resume(), name="onboarding-use", group="use")

    async def resume(self) -> None:
        """Pull what is still missing (Ollama continues where it stopped), then save."""
        if await self.run_downloads():
            await self.save()

    async def save(self) -> bool:
        """Write the choice into config.toml (checked first; nothing is written when the check fails)."""
        choice = self.choice
        if choice is None:
            return False
        self._is_saving = True
        self._update_buttons()
        try:
            await asyncio.to_thread(save_choice, self._config_file, choice, self._settings(), self._environ)
        except ConfigError as exc:
            log.warning("set-up could not save the models: %s", exc)
            self.show_page("models")
            self.models_page.show_problem(f"config.toml was not changed: {exc}")
            return False
        finally:
            self._is_saving = False
            self._update_buttons()
        log.info("set-up saved: local %s, reasoning %s, reflection %s, embedding %s on %s", choice.local,
                 choice.reasoning, choice.subconscious or "none", choice.embedding or "none", choice.server.base_url)
        self._finished = True
        self.done_page.show_summary(summary_lines(choice), (
            f"Saved in {self._config_file}; the assistant uses them from now on. Change them any time from "
            "the tray menu (Set up models…) or in that file."))
        self.show_page("done")
        self.finished.emit(choice)
        return True

    # --- window -----------------------------------------------------------------------------------------

    @property
    def is_finished(self) -> bool:
        return self._finished

    def bring_to_front(self) -> None:
        """Show the window non-modal, whole on a screen, raised and focused."""
        placement.bring_to_front(self)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape:  # from any control that does not use Esc itself
            self.close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if self._is_pulling:  # a download stops with the window; Ollama keeps what it has for a resume
            self.cancel_download()
        if not self._finished and not self._announced:
            self._announced = True
            self.finished.emit(None)
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            retheme(self)
        super().changeEvent(event)

    async def aclose(self) -> None:
        """Stop the search and any download (safe to call twice)."""
        await self.jobs.aclose()


def save_choice(path: Path, choice: Choice, settings: config.Settings, environ: Mapping[str, str] | None) -> None:
    """Write ``choice`` into config.toml (in a worker thread: tomlkit's import and the file are off the loop).

    Raises:
        ConfigError: the changed file does not pass the loader's check (nothing written).
    """
    from openhuman_desktop.config_edit import ConfigEdit
    from openhuman_desktop.qt.onboarding.plan import config_changes

    edit = ConfigEdit(path)
    edit.update(config_changes(choice, settings, environ))
    edit.save(environ)


def summary_lines(choice: Choice) -> Sequence[tuple[str, str]]:
    """(what, which) pairs for the done page."""
    def short(name: str) -> str:
        return name.removesuffix(":latest")

    return [
        ("Quick model", short(choice.local)),
        ("Reasoning model", short(choice.reasoning)),
        ("Reflection model", short(choice.subconscious) if choice.subconscious else "not used"),
        ("Memory vectors", short(choice.embedding) if choice.embedding else "not used"),
        ("Server", f"{choice.server.label} at {choice.server.base_url}"),
    ]
