"""The reflection world (real ledger, steering store and reflector over a fake Ollama) for the attack tests."""

from tests.reflection.conftest import server, world  # noqa: F401  (fixtures)
