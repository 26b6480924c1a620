"""The Settings window (config.toml on a form, saved with the user's comments kept, applied live)."""

from openhuman_desktop.qt.settings.window import SettingsWindow

__all__ = ["SettingsWindow"]
