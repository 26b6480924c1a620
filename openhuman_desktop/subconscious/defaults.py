"""The three built-in system tasks (CONTRACT §6), seeded once per database."""

from __future__ import annotations

DEFAULT_TASKS: tuple[tuple[str, str, str], ...] = (
    ("default:skills", "Check connected skills for errors or disconnections", "read"),
    ("default:memory", "Review new memory updates for actionable items", "read"),
    ("default:system", "Monitor system health (Ollama, memory, connections)", "read"),
)
