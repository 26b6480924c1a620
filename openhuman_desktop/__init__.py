"""OpenHuman Desktop: a private assistant that lives in the system tray."""

__version__ = "0.1.0"

__all__ = ["__version__"]
