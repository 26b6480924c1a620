"""The set-up's download page: a progress bar with bytes, speed and time left; Cancel, then Resume or Retry."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from openhuman_desktop.llm.pull import PullFailed, PullProgress, format_bytes
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.theme import em, make_primary
from openhuman_desktop.qt.onboarding.pages import page_layout, paragraph

BAR_STEPS = 1000


class PullPage(QWidget):
    """One model at a time: what is downloaded, how far, how fast; what went wrong and how to go on."""

    cancel_requested = Signal()
    resume_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Download")
        layout = page_layout(self, "Downloading models")
        self.model_label = paragraph("", self)
        layout.addWidget(self.model_label)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, BAR_STEPS)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setAccessibleName("Download progress")
        self.progress_bar.setMinimumHeight(round(em(self) * 0.9))
        layout.addWidget(self.progress_bar)
        self.detail_label = paragraph("", self)
        self.detail_label.setAccessibleName("Downloaded so far")
        layout.addWidget(self.detail_label)
        self.resume_label = paragraph("", self, muted=True)
        self.resume_label.hide()
        layout.addWidget(self.resume_label)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        buttons = QHBoxLayout()
        self.cancel_button = QPushButton("Cancel download", self)
        self.cancel_button.setToolTip("Stop the download; what is downloaded stays for a resume")
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        self.resume_button = QPushButton("Resume", self)
        make_primary(self.resume_button)
        self.resume_button.clicked.connect(self.resume_requested.emit)
        self.resume_button.hide()
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.resume_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.updates = 0
        """How many progress updates were shown (the bench counts them)."""
        self._model = ""

    def start(self, model: str, number: int, count: int) -> None:
        of = f" ({number} of {count})" if count > 1 else ""
        self._model = f"{model}{of}"
        self.model_label.setText(f"Downloading {model}{of} into Ollama. You can keep using your computer; "
                                 "the tray stays responsive.")
        self.error_label.clear_text()
        self.resume_label.hide()
        self.resume_button.hide()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.progress_bar.setRange(0, 0)  # busy until Ollama says the size
        self.detail_label.setText("Asking Ollama for the model…")

    def show_progress(self, progress: PullProgress) -> None:
        self.updates += 1
        fraction = progress.fraction
        if fraction is None:
            self.progress_bar.setRange(0, 0)
        else:
            if self.progress_bar.maximum() == 0:
                self.progress_bar.setRange(0, BAR_STEPS)
            self.progress_bar.setValue(round(fraction * BAR_STEPS))
        self.detail_label.setText(progress.describe())
        resume = progress.describe_resume()
        if resume:
            self.resume_label.setText(resume)
            self.resume_label.show()

    def show_failure(self, failure: PullFailed) -> None:
        progress = failure.progress
        self._stopped(progress, can_resume=failure.can_resume)
        if progress is not None and progress.total:
            kept = " (kept for a resume)" if failure.can_resume else ""
            self.detail_label.setText(f"Stopped at {format_bytes(progress.completed)} of "
                                      f"{format_bytes(progress.total)}{kept}.")
        else:
            self.detail_label.setText("The download did not start.")
        self.error_label.show_text(str(failure))

    def show_cancelled(self, progress: PullProgress | None) -> None:
        self._stopped(progress, can_resume=progress is not None and progress.completed > 0)
        kept = progress.completed if progress is not None else 0
        if kept:
            text = (f"Download paused: {format_bytes(kept)} of {format_bytes(progress.total if progress else 0)} "
                    "are kept. Press Resume to continue.")
        else:
            text = "Download cancelled. Press Retry to start it again."
        self.detail_label.setText(text)

    def _stopped(self, progress: PullProgress | None, *, can_resume: bool) -> None:
        self.model_label.setText(f"The download of {self._model} stopped.")
        self.cancel_button.hide()
        self.resume_button.setText("Resume" if can_resume else "Retry")
        self.resume_button.setAccessibleName("Resume download" if can_resume else "Retry download")
        self.resume_button.show()
        self.resume_button.setFocus()
        fraction = progress.fraction if progress is not None else None
        if self.progress_bar.maximum() == 0 or fraction is not None:  # where it stopped, not the last update
            self.progress_bar.setRange(0, BAR_STEPS)
            self.progress_bar.setValue(round((fraction or 0) * BAR_STEPS))
