"""What the bundle leaves out (packaging/lean.py): the Qt plugins the app never loads, and the libraries only
they needed, while a library any kept binary still needs (directly or through another) stays."""

from __future__ import annotations

from types import ModuleType

PLUGINS = "PySide6/Qt/plugins"


def entry(dest: str) -> tuple[str, str, str]:
    return (dest, f"/src/{dest}", "BINARY")


def test_the_plugins_a_desktop_tray_app_needs_stay(lean: ModuleType) -> None:
    for kept in ("platforms/libqxcb.so", "platforms/libqwayland.so", "platforms/libqoffscreen.so",
                 "platforms/libqminimal.so", "platformthemes/libqxdgdesktopportal.so", "imageformats/libqsvg.so",
                 "iconengines/libqsvgicon.so", "platforminputcontexts/libibusplatforminputcontextplugin.so",
                 "xcbglintegrations/libqxcb-glx-integration.so", "wayland-shell-integration/libxdg-shell.so"):
        assert not lean.is_unwanted(f"{PLUGINS}/{kept}"), kept
    assert not lean.is_unwanted("PySide6/Qt/lib/libQt6Gui.so.6")
    assert not lean.is_unwanted("libgtk-3.so.0")  # a library goes only when nothing kept needs it (prune)


def test_the_plugins_it_never_loads_go(lean: ModuleType) -> None:
    for dropped in ("platformthemes/libqgtk3.so", "platforms/libqeglfs.so", "platforms/libqvnc.so",
                    "platforms/libqlinuxfb.so", "egldeviceintegrations/libqeglfs-x11-integration.so",
                    "generic/libqevdevmouseplugin.so", "tls/libqopensslbackend.so", "imageformats/libqjpeg.so",
                    "networkinformation/libqglib.so"):
        assert lean.is_unwanted(f"{PLUGINS}/{dropped}"), dropped


def test_qt_translations_go_and_our_resources_stay(lean: ModuleType) -> None:
    assert lean.is_unwanted_data("PySide6/Qt/translations/qtbase_de.qm")
    assert not lean.is_unwanted_data("openhuman_desktop/resources/webapp/app.js")
    assert not lean.is_unwanted_data("bpe_openai/data/cl100k_base.tiktoken.gz")


def test_prune_drops_what_only_the_dropped_plugins_needed(lean: ModuleType) -> None:
    gtk_theme = entry(f"{PLUGINS}/platformthemes/libqgtk3.so")
    xcb = entry(f"{PLUGINS}/platforms/libqxcb.so")
    entries = [gtk_theme, xcb, entry("libgtk-3.so.0"), entry("libcairo.so.2"), entry("libX11.so.6"),
               entry("libxcb.so.1"), entry("PySide6/Qt/lib/libQt6Gui.so.6"), entry("libpython3.11.so.1.0")]
    needs = {
        gtk_theme[1]: ["libgtk-3.so.0", "libQt6Gui.so.6", "libX11.so.6"],
        "/src/libgtk-3.so.0": ["libcairo.so.2", "libX11.so.6"],
        "/src/libcairo.so.2": ["libX11.so.6"],
        xcb[1]: ["libQt6Gui.so.6", "/lib/x86_64-linux-gnu/libX11.so.6"],  # a full path counts by its name
        "/src/libX11.so.6": ["libxcb.so.1"],
    }
    kept, dropped = lean.prune(entries, lambda source: needs.get(source, []))
    kept_names = {dest.rsplit("/", 1)[-1] for dest, _, _ in kept}
    assert kept_names == {"libqxcb.so", "libX11.so.6", "libxcb.so.1", "libQt6Gui.so.6", "libpython3.11.so.1.0"}
    assert {dest.rsplit("/", 1)[-1] for dest, _, _ in dropped} == {"libqgtk3.so", "libgtk-3.so.0", "libcairo.so.2"}


def test_prune_keeps_a_library_a_kept_one_needs_through_another(lean: ModuleType) -> None:
    theme = entry(f"{PLUGINS}/platformthemes/libqgtk3.so")
    extension = entry("numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so")
    entries = [theme, extension, entry("libglib-2.0.so.0"), entry("libpcre2-8.so.0")]
    needs = {theme[1]: ["libglib-2.0.so.0", "libpcre2-8.so.0"], extension[1]: ["libglib-2.0.so.0"],
             "/src/libglib-2.0.so.0": ["libpcre2-8.so.0"]}
    kept, dropped = lean.prune(entries, lambda source: needs.get(source, []))
    assert [dest for dest, _, _ in dropped] == [theme[0]]
    assert len(kept) == 3


def test_test_and_type_check_tools_are_excluded(lean: ModuleType) -> None:
    for name in ("pytest", "_pytest", "hypothesis", "mypy", "rich", "click", "tkinter", "PySide6.QtDBus"):
        assert name in lean.EXCLUDED_MODULES
    for needed in ("numpy", "tiktoken", "pydantic", "aiohttp", "httpx", "jeepney", "PySide6.QtNetwork"):
        assert needed not in lean.EXCLUDED_MODULES
