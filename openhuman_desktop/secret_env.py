"""Secrets from the environment: the one way the app reads a variable that its config names as holding one.

The config never holds a key, a token or a password; it names the variable of the app's environment that does
(``api_key_env``, ``token_env``, ``password_env``, ``webhook_env``, ``env_from``, ``headers_from``). Every
reader of such a variable calls :func:`secret_from`, so the value read is one thing with one name: the tests'
secret watch learns each value here and fails a test in which one reaches a model or a log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def secret_from(environ: Mapping[str, str] | None, name: str | None) -> str:
    """The value of the variable ``name`` in ``environ`` (None: the app's environment) as it is set; ``""``
    when ``name`` is empty or the variable is not set."""
    if not name:
        return ""
    return (os.environ if environ is None else environ).get(name, "")

