"""The first-run set-up: find a model server, pick (or download) the models, write them to config.toml."""

from openhuman_desktop.qt.onboarding.window import OnboardingWindow

__all__ = ["OnboardingWindow"]
