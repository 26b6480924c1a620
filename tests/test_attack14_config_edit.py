"""Attack on config_edit (what the Settings window saves through) with odd but real config.toml files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from openhuman_desktop import config
from openhuman_desktop.config_edit import ConfigEdit
from openhuman_desktop.errors import ConfigError


def test_a_config_that_is_a_symlink_into_the_users_dotfiles_stays_one(tmp_path: Path) -> None:
    """config.toml → ~/dotfiles/openhuman.toml: a save writes the dotfile, it does not replace the link with a
    copy (the dotfile would stop being the config, and the next dotfiles update would silently not apply)."""
    dotfile = tmp_path / "dotfiles" / "openhuman.toml"
    dotfile.parent.mkdir()
    dotfile.write_text("[heartbeat]\nenabled = true  # mine\n")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    link = workspace / "config.toml"
    link.symlink_to(dotfile)
    edit = ConfigEdit(link)
    edit.set("heartbeat.enabled", False)
    edit.save()
    assert link.is_symlink(), "the link was replaced by a copy"
    assert dotfile.read_text() == "[heartbeat]\nenabled = false # mine\n"
    assert config.load(link).settings.heartbeat.enabled is False
    assert sorted(p.name for p in workspace.iterdir()) == ["config.toml"], "a temporary file was left behind"


def test_a_read_only_config_is_not_overwritten_and_the_user_is_told_why(tmp_path: Path) -> None:
    """chmod 444 config.toml is how a person protects a file; the rename trick must not get around it."""
    path = tmp_path / "config.toml"
    text = "[heartbeat]\nenabled = true\n"
    path.write_text(text)
    path.chmod(0o444)
    edit = ConfigEdit(path)
    edit.set("heartbeat.enabled", False)
    with pytest.raises(ConfigError) as raised:
        edit.save()
    assert raised.value.key == "(file)"
    assert "read-only" in str(raised.value)
    assert path.read_text() == text
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444
    assert edit.changes, "the user's edit is kept for a second try"


DOTTED = """\
# my models, written as dotted keys
models.local.provider = "ollama"
models.local.model = "llama3.2:3b"  # small

[heartbeat]
enabled = true
"""


def test_dotted_keys_never_end_up_under_another_table(tmp_path: Path) -> None:
    """With ``models.local.model = …`` at the top and a new [models.embedding] table, tomlkit wrote the local
    model's line after the new header: it became models.embedding.models.local.model, the loader took it, and the
    local model silently went back to the default. A save must write what was asked, or refuse and write nothing."""
    path = tmp_path / "config.toml"
    path.write_text(DOTTED)
    edit = ConfigEdit(path)
    edit.set("models.local.model", "qwen2.5:0.5b")
    edit.set("models.embedding", {"provider": "ollama", "model": "nomic-embed-text"})
    try:
        edit.save()
    except ConfigError as exc:
        assert path.read_text() == DOTTED, "refused, but something was written"
        assert "text editor" in str(exc)
        return
    settings = config.load(path).settings
    local = settings.model("local")
    assert local is not None and local.model == "qwen2.5:0.5b"
    assert settings.model("embedding") == config.ModelSettings("ollama", "nomic-embed-text")


def test_a_save_never_writes_a_file_too_large_for_the_loader(tmp_path: Path) -> None:
    """A config.toml just under the loader's size limit (a pasted log in a comment, say): a change that takes
    it over the limit was written, and then the app refused its own file ("larger than 1024 KiB")."""
    path = tmp_path / "config.toml"
    head = "[models.local]\nprovider = \"ollama\"\nmodel = \"llama3.2:3b\"\n"
    filler = "# " + "x" * 78 + "\n"
    text = head + filler * ((config.MAX_CONFIG_BYTES - len(head) - 40) // len(filler))
    path.write_text(text)
    config.load(path)   # the file as it is loads
    edit = ConfigEdit(path)
    edit.set("models.local.model", "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M" * 3)
    with pytest.raises(ConfigError) as raised:
        edit.save()
    assert raised.value.key == "(file)"
    assert path.read_text() == text


def test_a_config_saved_with_a_byte_order_mark_loads_and_saves(tmp_path: Path) -> None:
    """Notepad's "UTF-8 with BOM": the file looks right in every editor, but the loader said
    "(syntax) = 'Invalid statement (at line 1, column 1)'" and the Settings window could not save it."""
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff# mine\n[heartbeat]\ninterval_minutes = 15\n".encode())
    assert config.load(path).settings.heartbeat.interval_minutes == 15
    edit = ConfigEdit(path)
    edit.set("heartbeat.interval_minutes", 20)
    edit.save()
    assert config.load(path).settings.heartbeat.interval_minutes == 20
    assert "# mine" in path.read_text(encoding="utf-8-sig")


def test_a_config_with_windows_line_endings_keeps_them(tmp_path: Path) -> None:
    """A CRLF file came back with CRLF on its old lines and LF on the new ones."""
    path = tmp_path / "config.toml"
    path.write_bytes(b"# mine\r\n[heartbeat]\r\nenabled = true  # on\r\n")
    edit = ConfigEdit(path)
    edit.set("heartbeat.interval_minutes", 20)
    edit.set("rpc.port", 8765)
    edit.save()
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n"), data
    assert config.load(path).settings.rpc_port == 8765


def test_a_new_tier_in_a_config_that_writes_its_models_as_inline_tables(tmp_path: Path) -> None:
    """``models = { local = { … } }`` is valid TOML; turning on the embedding tier in Settings raised tomlkit's bare
    ValueError ("Inline tables cannot contain a table"): no sentence, the save job failed as a crash."""
    path = tmp_path / "config.toml"
    path.write_text('# mine\nmodels = { local = { provider = "ollama", model = "a:1" } }  # inline\n')
    edit = ConfigEdit(path)
    edit.set("models.embedding", {"provider": "ollama", "model": "nomic-embed-text"})
    edit.set("models.reasoning.provider", "ollama")
    edit.set("models.reasoning.model", "qwen2.5:14b")
    edit.save()
    settings = config.load(path).settings
    assert settings.model("embedding") == config.ModelSettings("ollama", "nomic-embed-text")
    assert settings.model("reasoning") == config.ModelSettings("ollama", "qwen2.5:14b")
    assert settings.model("local") == config.ModelSettings("ollama", "a:1")
    assert "# mine" in path.read_text() and "# inline" in path.read_text()


def test_two_windows_saving_at_the_same_moment_both_keep_their_change(tmp_path: Path) -> None:
    """Settings and the first-run set-up both save from worker threads of the same process: they shared one
    temporary file name (the pid), so one save could fail ("No such file or directory") or write over the
    other's change with the file it had read before the other wrote."""
    import threading

    path = tmp_path / "config.toml"
    failures: list[BaseException] = []
    for round_ in range(40):
        path.write_text(config.DEFAULT_CONFIG_TEXT)
        barrier = threading.Barrier(2)

        def save(key: str, value: object, barrier: threading.Barrier = barrier) -> None:
            edit = ConfigEdit(path)
            edit.set(key, value)
            barrier.wait()
            try:
                edit.save()
            except BaseException as exc:  # noqa: BLE001 (collected for the assertion)
                failures.append(exc)

        threads = [threading.Thread(target=save, args=("heartbeat.interval_minutes", 100 + round_)),
                   threading.Thread(target=save, args=("models.local.model", f"model-{round_}"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert failures == []
        settings = config.load(path).settings
        local = settings.model("local")
        assert settings.heartbeat.interval_minutes == 100 + round_ and local is not None and \
            local.model == f"model-{round_}", f"round {round_}: one change was lost"
