"""Test doubles that behave like the real outside world: fake model servers, clocks."""
