"""What the bundle leaves out: Python packages the app never imports, Qt plugins it never loads, and the
shared libraries only those plugins needed (used by ``pyinstaller.spec``; plain Python, no PyInstaller import).

PyInstaller follows every import it can see, and the PySide6 hook collects every plugin of the modules we use.
That brings in test and type-checking tools (reachable through optional imports of pydantic, httpx and anyio),
the GTK 3 platform theme with the build machine's whole GTK stack, and the embedded-device platforms (EGLFS,
linuxfb, VNC). None of them is ever loaded by the tray app on a desktop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import PurePosixPath

EXCLUDED_MODULES = (
    # tests, type checking and their helpers: reachable only through optional plugin imports
    "_pytest", "pytest", "hypothesis", "mypy", "mypyc", "mypy_extensions", "librt", "ast_serialize",
    "pytestqt", "playwright", "ruff", "importlinter", "grimp",
    # httpx's command line (httpx._main) and what only it uses
    "click", "rich", "pygments", "markdown_it", "mdurl",
    # optional decoders and helpers the app never asks for
    "zstandard", "brotli", "brotlicffi", "yaml", "IPython", "PIL", "tkinter", "_tkinter", "setuptools", "pip",
    "pkg_resources", "distutils", "lib2to3", "pydoc_data",
    # other Qt bindings qasync would probe for (PySide6 is imported first) and Qt modules we never import
    "PyQt5", "PyQt6", "PySide2", "PySide6.QtDBus", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets",
    "PySide6.QtPrintSupport", "PySide6.QtSql", "PySide6.QtTest", "PySide6.QtXml", "PySide6.QtConcurrent",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtWebEngineCore", "PySide6.QtDesigner", "PySide6.QtUiTools",
    "PySide6.QtHelp", "PySide6.QtStateMachine",
)
"""Modules (and their submodules) never bundled."""

QT_PLUGINS = "PySide6/Qt/plugins"
DROPPED_PLUGIN_FOLDERS = frozenset({
    "egldeviceintegrations",  # EGLFS on bare hardware
    "generic",  # evdev and TUIO input: only the EGLFS/linuxfb platforms read them
    "networkinformation",  # QNetworkInformation: not used
    "tls",  # Qt's own TLS: every HTTPS request goes through httpx
})
DROPPED_PLUGINS = frozenset({
    "platformthemes/libqgtk3.so",  # GTK 3 file dialogs and palette: pulls ≈ 20 MB of the build host's GTK
    "platforms/libqeglfs.so",
    "platforms/libqminimalegl.so",
    "platforms/libqlinuxfb.so",
    "platforms/libqvnc.so",
    "platforms/libqvkkhrdisplay.so",
})
KEPT_IMAGE_FORMATS = frozenset({"libqsvg.so"})
"""The app's icons are SVG; it shows no raster images."""
DROPPED_DATA = ("PySide6/Qt/translations",)
"""Qt's own translations (≈ 7 MB): the app installs no QTranslator, its text is English."""


def is_unwanted_data(dest: str) -> bool:
    """Whether a collected data file (its path inside the bundle) is one the app never reads."""
    path = PurePosixPath(dest)
    return any(path == PurePosixPath(folder) or PurePosixPath(folder) in path.parents for folder in DROPPED_DATA)


def is_unwanted(dest: str) -> bool:
    """Whether a collected binary (its path inside the bundle) is a Qt plugin the app never loads."""
    parts = PurePosixPath(dest).parts
    prefix = PurePosixPath(QT_PLUGINS).parts
    if parts[: len(prefix)] != prefix or len(parts) < len(prefix) + 2:
        return False
    folder, name = parts[len(prefix)], parts[-1]
    if folder in DROPPED_PLUGIN_FOLDERS or f"{folder}/{name}" in DROPPED_PLUGINS:
        return True
    return folder == "imageformats" and name not in KEPT_IMAGE_FORMATS


def prune(
    entries: Sequence[tuple[str, str, str]], needed_by: Callable[[str], Iterable[str]]
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """Drop the unwanted plugins and every library that only they needed.

    Args:
        entries: PyInstaller's binaries, ``(dest, source, typecode)``.
        needed_by: the file names of the libraries a binary (its source path) loads, e.g. from ``ldd``.

    Returns:
        ``(kept, dropped)``. A library stays when any kept binary needs it, directly or through another.
    """
    unwanted = [entry for entry in entries if is_unwanted(entry[0])]
    rest = [entry for entry in entries if not is_unwanted(entry[0])]
    by_name = {PurePosixPath(dest).name: (dest, source, kind) for dest, source, kind in rest}
    cache: dict[str, frozenset[str]] = {}

    def names(source: str) -> frozenset[str]:
        if source not in cache:
            cache[source] = frozenset(PurePosixPath(name).name for name in needed_by(source))
        return cache[source]

    candidates: set[str] = set()
    todo = [source for _, source, _ in unwanted]
    while todo:
        for name in names(todo.pop()):
            if name in by_name and name not in candidates:
                candidates.add(name)
                todo.append(by_name[name][1])
    needed: set[str] = set()
    todo = [source for dest, source, _ in rest if PurePosixPath(dest).name not in candidates]
    while todo:
        for name in names(todo.pop()) & candidates:
            if name not in needed:
                needed.add(name)
                todo.append(by_name[name][1])
    gone = candidates - needed
    kept = [entry for entry in rest if PurePosixPath(entry[0]).name not in gone]
    dropped = unwanted + [entry for entry in rest if PurePosixPath(entry[0]).name in gone]
    return kept, dropped
