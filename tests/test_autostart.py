"""Start at login: the XDG autostart entry is written for this workspace (Exec quoted as the Desktop Entry spec
says), switched off again, and an entry the user wrote is never touched."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from openhuman_desktop import autostart


def unquote_exec(value: str) -> list[str]:
    """The arguments a desktop reads from an ``Exec`` value (string escapes first, then the quoting rules)."""
    text = value.replace("\\\\", "\x00")  # string escape: \\ is one backslash
    text = text.replace("\x00", "\\")
    args: list[str] = []
    current, quoted, i, started = "", False, 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                current += text[i + 1]
                i += 2
                continue
            if ch == '"':
                quoted = False
            else:
                current += ch
        elif ch == '"':
            quoted, started = True, True
        elif ch == " ":
            if current or started:
                args.append(current)
            current, started = "", False
        else:
            current += ch
        i += 1
    if current or started:
        args.append(current)
    return [arg.replace("%%", "%") for arg in args]


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path / "home")}


def test_the_entry_starts_this_app_on_this_workspace(tmp_path: Path, environ: dict[str, str]) -> None:
    workspace = tmp_path / "my work $HOME \"quoted\" `tick` back\\slash 100%"
    assert not autostart.is_enabled(environ)
    path = autostart.enable(workspace, environ)
    assert path == tmp_path / "config" / "autostart" / "openhuman-desktop.desktop"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    text = path.read_text(encoding="utf-8")
    assert text.startswith("[Desktop Entry]\n") and "Type=Application\n" in text and "Terminal=false\n" in text
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    assert unquote_exec(exec_line.removeprefix("Exec=")) == [sys.executable, "-m", "openhuman_desktop",
                                                             "--workspace", str(workspace)]
    assert autostart.is_enabled(environ)
    assert list(path.parent.iterdir()) == [path]  # written atomically: no temporary file left behind
    autostart.enable(workspace, environ)          # again: the same entry, rewritten
    assert autostart.disable(environ) and not path.exists() and not autostart.is_enabled(environ)
    assert not autostart.disable(environ)


def test_without_xdg_config_home_it_goes_under_home(tmp_path: Path) -> None:
    for environ in ({"HOME": str(tmp_path)}, {"HOME": str(tmp_path), "XDG_CONFIG_HOME": "relative/dir"}):
        assert autostart.entry_path(environ) == tmp_path / ".config" / "autostart" / "openhuman-desktop.desktop"


def test_an_entry_the_user_wrote_is_left_alone(tmp_path: Path, environ: dict[str, str]) -> None:
    path = autostart.entry_path(environ)
    path.parent.mkdir(parents=True)
    path.write_text("[Desktop Entry]\nType=Application\nExec=my-own-script\n", encoding="utf-8")
    assert not autostart.is_enabled(environ)
    with pytest.raises(autostart.AutostartError, match="not written by OpenHuman"):
        autostart.enable(tmp_path / "ws", environ)
    with pytest.raises(autostart.AutostartError, match="left alone"):
        autostart.disable(environ)
    assert path.read_text(encoding="utf-8").endswith("Exec=my-own-script\n")


def test_an_entry_switched_off_by_the_desktop_does_not_count(tmp_path: Path, environ: dict[str, str]) -> None:
    path = autostart.enable(tmp_path / "ws", environ)
    path.write_text(path.read_text(encoding="utf-8") + "Hidden=true\n", encoding="utf-8")
    assert not autostart.is_enabled(environ)


def test_a_folder_that_cannot_be_made_is_one_sentence(tmp_path: Path, environ: dict[str, str]) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "autostart").write_text("a file where the folder should be", encoding="utf-8")
    with pytest.raises(autostart.AutostartError, match=r"could not be turned on: .* is not writable"):
        autostart.enable(tmp_path / "ws", environ)


def test_a_workspace_with_a_line_break_is_refused(tmp_path: Path, environ: dict[str, str]) -> None:
    with pytest.raises(autostart.AutostartError, match="line break"):
        autostart.enable(tmp_path / "two\nlines", environ)
    assert not autostart.entry_path(environ).exists()
