"""The first-run set-up window on a real fake Ollama: every step, downloads (half-way failure, cancel, resume),
no server at all, a refused save, skip and Esc — and config.toml keeps the user's comments."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop import config
from openhuman_desktop.llm import discovery
from openhuman_desktop.qt.onboarding import OnboardingWindow
from openhuman_desktop.qt.onboarding.pages import CARDS_SENTENCE, NO_SERVER, TRAY_SENTENCE
from tests.fakes.model_servers import FakeOllama

MB = 1_000_000
DESKTOP = discovery.Machine(16_000 * MB, 8)     # a computer that runs a 7B model well
COMMENT = "# kept: my note about the models\n"
Run = Callable[..., Any]
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")  # offscreen top level
Until = Callable[..., None]


@pytest.fixture
def ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    with FakeOllama() as server:
        server.pull_chunk = MB
        yield server


def write_config(path: Path, host: str, extra: str = "") -> Path:
    text = config.DEFAULT_CONFIG_TEXT.replace('host = "http://127.0.0.1:11434"', f'host = "{host}"')
    path.write_text(text + COMMENT + extra, encoding="utf-8")
    return path


@pytest.fixture
def config_file(tmp_path: Path, ollama: FakeOllama) -> Path:
    return write_config(tmp_path / "config.toml", ollama.url)


@pytest.fixture
def make_window(qtbot: Any, qrun: Run, config_file: Path) -> Iterator[Callable[..., OnboardingWindow]]:
    windows: list[OnboardingWindow] = []

    def make(path: Path = config_file, machine: discovery.Machine = DESKTOP) -> OnboardingWindow:
        settings = config.load(path, environ={}).settings     # what the app has in force
        window = OnboardingWindow(lambda: settings, path, environ={},
                                  discover=functools.partial(discovery.discover, local_servers=(), timeout=2),
                                  machine=machine)
        windows.append(window)
        window.bring_to_front()
        return window

    yield make
    for window in windows:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()


def found(window: OnboardingWindow) -> bool:
    return window.server_page.selected() is not None


def to_models(window: OnboardingWindow, until: Until) -> None:
    until(lambda: found(window), message="(no server found)")
    window.next_button.click()
    assert window.page_name == "server"
    window.next_button.click()
    assert window.page_name == "models"


def test_welcome_says_what_the_tray_icon_and_cards_mean_and_the_server_is_found_meanwhile(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama) -> None:
    ollama.add_model("llama3.2:3b", size_bytes=2_019_393_189)
    window = make_window()
    assert window.page_name == "welcome" and window.isVisible() and not window.isModal()
    assert window.welcome_page.tray_text.text() == TRAY_SENTENCE
    assert window.welcome_page.cards_text.text() == CARDS_SENTENCE
    assert window.skip_button.isVisible() and not window.back_button.isVisible()
    until(lambda: found(window))               # discovery ran in the background while the welcome showed
    window.next_button.click()
    item = window.server_page.server_list.currentItem()
    assert item is not None and item.text().startswith(f"Ollama — {ollama.url}\n1 model, 2.0 GB: llama3.2:3b")
    assert window.step_label.text() == "Step 2 of 4"


def test_installed_models_are_recommended_and_saved_with_the_comments_kept(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    ollama.add_model("qwen2.5:0.5b", size_bytes=398 * MB)
    ollama.add_model("llama3.2:3b", size_bytes=2_019_393_189)
    ollama.add_model("qwen2.5:14b", size_bytes=9_000 * MB)
    ollama.add_model("nomic-embed-text", family="nomic-bert", size_bytes=274 * MB)
    window = make_window()
    finished: list[Any] = []
    window.finished.connect(finished.append)
    to_models(window, until)
    page = window.models_page
    assert page.combos["local"].currentText().startswith("llama3.2:3b  ·  2.0 GB")
    assert page.combos["reasoning"].currentText().startswith("qwen2.5:14b  ·  9.0 GB")
    assert page.combos["embedding"].currentText().startswith("nomic-embed-text")
    assert window.next_button.text() == "Use these models" and page.download_label.isHidden()
    page.combos["embedding"].setCurrentIndex(0)          # "Not used"
    window.next_button.click()
    until(lambda: window.page_name == "done")
    text = config_file.read_text(encoding="utf-8")
    assert COMMENT in text and "# quick tier: task evaluation" in text
    saved = config.load(config_file, environ={}).settings
    assert (saved.models["local"].model, saved.models["reasoning"].model) == ("llama3.2:3b", "qwen2.5:14b")
    assert "embedding" not in saved.models
    assert ("Quick model: llama3.2:3b\nReasoning model: qwen2.5:14b\nReflection model: qwen2.5:14b\n"
            "Memory vectors: not used") in window.done_page.summary_text()
    assert len(finished) == 1 and finished[0].local == "llama3.2:3b"
    assert window.next_button.text() == "Close" and not window.skip_button.isVisible()
    window.next_button.click()
    assert not window.isVisible()


def test_an_empty_ollama_downloads_the_suggested_models_with_progress_then_saves(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    ollama.add_library_model("llama3.2:3b", size_bytes=20 * MB)
    ollama.add_library_model("qwen2.5:7b", size_bytes=30 * MB)
    window = make_window()
    to_models(window, until)
    assert "download 2.0 GB" in window.models_page.combos["local"].currentText()
    assert window.models_page.download_label.text().startswith("Next downloads llama3.2:3b, qwen2.5:7b")
    assert window.next_button.text() == "Download and use"
    window.next_button.click()
    until(lambda: window.page_name == "done", timeout=30)
    assert window.pull_page.updates > 2
    assert window.pull_page.progress_bar.value() == window.pull_page.progress_bar.maximum()
    assert "Downloaded 30 MB" in window.pull_page.detail_label.text()
    saved = config.load(config_file, environ={}).settings
    assert (saved.models["local"].model, saved.models["reasoning"].model) == ("llama3.2:3b", "qwen2.5:7b")
    assert {"llama3.2:3b", "qwen2.5:7b"} <= {r.json["model"] for r in ollama.requests if r.path == "/api/pull"}


@pytest.mark.logs_expected(r"failed: The disk where Ollama keeps its models is full;")
def test_a_download_that_fails_half_way_offers_resume_and_resumes_where_it_stopped(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    ollama.add_model("qwen2.5:14b", size_bytes=9_000 * MB)
    ollama.add_library_model("llama3.2:3b", size_bytes=20 * MB)
    ollama.fail_pull(after_bytes=10 * MB, error="write /root/.ollama/models/blobs/sha256-1-partial: "
                                                "no space left on device")
    window = make_window()
    to_models(window, until)
    page = window.models_page
    local = page.combos["local"]
    local.setCurrentIndex(next(i for i in range(local.count()) if local.itemText(i).startswith("llama3.2:3b")))
    window.next_button.click()
    pull = window.pull_page
    until(lambda: pull.resume_button.isVisible())
    assert "disk where Ollama keeps its models is full" in pull.error_label.text()
    assert pull.resume_button.text() == "Resume" and not pull.cancel_button.isVisible()
    assert 400 <= pull.progress_bar.value() <= 600                      # half of 20 MB
    assert pull.detail_label.text() == "Stopped at 10 MB of 20 MB (kept for a resume)."
    assert pull.model_label.text() == "The download of llama3.2:3b stopped."
    assert window.page_name == "pull" and window.back_button.isEnabled()
    assert ollama.partial_bytes("llama3.2:3b") == 10 * MB
    qtbot_click(pull.resume_button)
    until(lambda: window.page_name == "done", timeout=30)
    assert pull.resume_label.text() == "Resumed: 10 MB were already downloaded."
    assert config.load(config_file, environ={}).settings.models["local"].model == "llama3.2:3b"


def test_any_model_of_the_library_can_be_typed_and_is_downloaded(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    ollama.add_model("qwen2.5:14b", size_bytes=9_000 * MB)
    ollama.add_library_model("gemma3:4b", size_bytes=30 * MB)
    window = make_window()
    to_models(window, until)
    page = window.models_page
    local = page.combos["local"]
    assert local.isEditable() and local.lineEdit().placeholderText().startswith("or type a model name")
    local.setEditText("not a name!")
    assert page.picks() is None and not window.next_button.isEnabled()
    local.setEditText("qwen2.5:14b")                    # installed: nothing to download
    assert page.downloads() == () and window.next_button.isEnabled()
    local.setEditText("gemma3:4b")
    assert page.downloads() == ("gemma3:4b",)
    assert "gemma3:4b (its size shows once it starts)" in page.download_label.text()
    window.next_button.click()
    until(lambda: window.page_name == "done", timeout=30)
    assert config.load(config_file, environ={}).settings.models["local"].model == "gemma3:4b"
    assert window.pull_page.progress_bar.value() == window.pull_page.progress_bar.maximum()  # pulled, not skipped


def qtbot_click(button: Any) -> None:
    button.click()


def test_cancel_keeps_the_partial_download_and_resume_continues(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama) -> None:
    ollama.add_model("qwen2.5:14b", size_bytes=9_000 * MB)
    ollama.add_library_model("llama3.2:3b", size_bytes=200 * MB)
    ollama.pull_rate = 20 * MB
    window = make_window()
    to_models(window, until)
    local = window.models_page.combos["local"]
    local.setCurrentIndex(next(i for i in range(local.count()) if local.itemText(i).startswith("llama3.2:3b")))
    window.next_button.click()
    pull = window.pull_page
    until(lambda: "MB/s" in pull.detail_label.text())
    assert "left" in pull.detail_label.text()
    pull.cancel_button.click()
    until(lambda: pull.resume_button.isVisible())
    assert pull.detail_label.text().startswith("Download paused:") and pull.resume_button.text() == "Resume"
    until(lambda: ollama.pulls_in_flight == 0)
    assert ollama.partial_bytes("llama3.2:3b") > 0
    ollama.pull_rate = None
    pull.resume_button.click()
    until(lambda: window.page_name == "done", timeout=30)
    assert pull.resume_label.text().startswith("Resumed:")


def test_without_a_server_it_says_how_to_start_ollama_and_an_address_can_be_given(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, tmp_path: Path,
        unused_tcp_port: int) -> None:
    ollama.add_model("llama3.2:3b")
    path = write_config(tmp_path / "other.toml", f"http://127.0.0.1:{unused_tcp_port}")
    window = make_window(path)
    window.next_button.click()
    page = window.server_page
    until(lambda: page.search_button.isEnabled())
    assert page.hint_label.isVisible() and page.hint_label.text() == NO_SERVER
    assert not window.next_button.isEnabled()
    problems = [page.server_list.item(i).text() for i in range(page.server_list.count())]  # none answered
    assert any(f"Ollama does not answer at http://127.0.0.1:{unused_tcp_port}" in text for text in problems)
    page.address_edit.setText(f"127.0.0.1:{unused_tcp_port}")
    page.check_button.click()
    until(lambda: page.error_label.isVisible())
    assert "Neither Ollama nor an OpenAI-compatible server answers" in page.error_label.text()
    page.address_edit.setText(f"127.0.0.1:{ollama.port}")
    page.check_button.click()
    until(lambda: found(window))
    assert window.server_page.selected().base_url == ollama.url  # type: ignore[union-attr]
    assert window.next_button.isEnabled() and not page.hint_label.isVisible()
    window.next_button.click()
    assert window.page_name == "models"


@pytest.mark.logs_expected(r"is invalid: expected a whole number from")
def test_a_save_the_loader_refuses_shows_its_sentence_and_writes_nothing(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    ollama.add_model("llama3.2:3b")
    window = make_window()
    to_models(window, until)
    broken = config_file.read_text(encoding="utf-8").replace("interval_minutes = 5", "interval_minutes = \"x\"")
    config_file.write_text(broken, encoding="utf-8")         # edited in a text editor meanwhile
    window.next_button.click()
    until(lambda: window.models_page.error_label.isVisible())
    assert window.models_page.error_label.text().startswith("config.toml was not changed: ")
    assert "heartbeat.interval_minutes" in window.models_page.error_label.text()
    assert config_file.read_text(encoding="utf-8") == broken and window.page_name == "models"


@pytest.mark.parametrize("how", ["skip", "escape"])
def test_skip_and_escape_close_without_writing(make_window: Callable[..., OnboardingWindow], until: Until,
                                               qtbot: Any, ollama: FakeOllama, config_file: Path, how: str) -> None:
    before = config_file.read_text(encoding="utf-8")
    window = make_window()
    finished: list[Any] = []
    window.finished.connect(finished.append)
    window.next_button.click()
    if how == "skip":
        window.skip_button.click()
    else:
        qtbot.keyClick(window.server_page.server_list, Qt.Key.Key_Escape)
    assert not window.isVisible() and finished == [None]
    assert config_file.read_text(encoding="utf-8") == before


def test_every_control_has_a_name_and_the_focus_moves_with_the_page(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama) -> None:
    ollama.add_model("llama3.2:3b")
    window = make_window()
    assert window.next_button.isDefault() and window.accessibleName() == "Set up OpenHuman"
    to_models(window, until)
    for combo in window.models_page.combos.values():
        assert combo.accessibleName()
    for name in ("server_list", "address_edit", "check_button"):
        assert getattr(window.server_page, name).accessibleName()
    assert window.pull_page.progress_bar.accessibleName() == "Download progress"


# --- the reflection tier; very small models ----------------------------------------------------------------


def test_the_reflection_tier_is_offered_with_the_reasoning_model_and_saved(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    """The set-up never offered [models.subconscious], so "Reflect now" stayed off after it."""
    ollama.add_model("llama3.2:3b", size_bytes=2_019_393_189)
    ollama.add_model("qwen2.5:14b", size_bytes=9_000 * MB)
    window = make_window()
    to_models(window, until)
    reflection = window.models_page.combos["subconscious"]
    assert reflection.accessibleName() == "Reflection model (subconscious tier)"
    assert reflection.currentText().startswith("qwen2.5:14b")          # the reasoning model's
    assert reflection.itemText(0) == "Not used"
    window.next_button.click()
    until(lambda: window.page_name == "done")
    saved = config.load(config_file, environ={}).settings
    assert saved.models["subconscious"].model == "qwen2.5:14b" and saved.models["subconscious"].provider == "ollama"
    assert "Reflection model: qwen2.5:14b" in window.done_page.summary_text()


def test_a_very_small_installed_model_gives_way_to_one_this_computer_runs_well(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama, config_file: Path) -> None:
    """The set-up picked SmolLM2-135M for both tiers with no word about its size."""
    ollama.add_model("smollm2:135m", size_bytes=271 * MB, parameter_size="134.52M")
    ollama.add_library_model("llama3.2:3b", size_bytes=20 * MB)
    ollama.add_library_model("qwen2.5:7b", size_bytes=30 * MB)
    window = make_window()
    to_models(window, until)
    page = window.models_page
    assert page.combos["local"].currentText().startswith("llama3.2:3b  ·  download")
    assert page.combos["reasoning"].currentText().startswith("qwen2.5:7b  ·  download")
    assert page.advice_label.isHidden()
    local = page.combos["local"]
    local.setCurrentIndex(next(i for i in range(local.count()) if local.itemText(i).startswith("smollm2:135m")))
    advice = page.advice_label.text()
    assert page.advice_label.isVisibleTo(page)
    assert "smollm2:135m is a very small model (135 M parameters)" in advice
    assert "cannot plan the agent's steps" in advice
    assert "This computer (16 GB of memory, 8 cores) runs llama3.2:3b (2.0 GB) well: pick it" in advice


def test_a_small_computer_is_offered_what_it_runs(
        make_window: Callable[..., OnboardingWindow], until: Until, ollama: FakeOllama) -> None:
    ollama.add_model("smollm2:135m", size_bytes=271 * MB, parameter_size="134.52M")
    window = make_window(machine=discovery.Machine(4_000 * MB, 2))
    to_models(window, until)
    page = window.models_page
    assert page.combos["local"].currentText().startswith("qwen2.5:0.5b  ·  download")
    assert page.combos["reasoning"].currentText().startswith("qwen2.5:0.5b  ·  download")
    assert "(4 GB of memory, 2 cores) has no room for a bigger one" in page.advice_label.text()   # says so


def test_a_server_that_loads_its_own_models_is_told_what_to_load(qtbot: Any) -> None:
    from openhuman_desktop.llm.catalog import InstalledModel
    from openhuman_desktop.qt.onboarding.models_page import ModelsPage

    server = discovery.FoundServer(discovery.Candidate("openai", "http://127.0.0.1:8080/v1", "llama.cpp",
                                                       "its usual port"),
                                   (InstalledModel("SmolLM2-135M-Instruct"),))
    page = ModelsPage()
    qtbot.add_widget(page)
    picks = discovery.recommend(server, None, DESKTOP)
    assert (picks.local, picks.reasoning, picks.subconscious) == ("SmolLM2-135M-Instruct",) * 3
    page.show_server(server, picks, DESKTOP)
    advice = page.advice_label.text()
    assert advice.startswith("SmolLM2-135M-Instruct is a very small model (135 M parameters): it answers short "
                             "questions")
    assert "runs a 3.2 B model well: load one in llama.cpp, such as Llama 3.2 3B Instruct" in advice
