"""The first-run set-up: find a model server, pick (or download) the models, write them to config.toml.

The window is imported on first use (``from openhuman_desktop.qt.onboarding import OnboardingWindow`` works), so
the app's start, which imports the launcher, does not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow

__all__ = ["OnboardingWindow"]


def __getattr__(name: str) -> Any:
    if name == "OnboardingWindow":
        from openhuman_desktop.qt.onboarding.window import OnboardingWindow

        return OnboardingWindow
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
