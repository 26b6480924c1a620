"""Files only the user may read (the RPC server's and the web app's address and token): written atomically."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path


def write_private_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` atomically, readable only by the user (mode 0600).

    Raises:
        OSError: it cannot be written; the error names ``path`` (not the temporary file, which is removed: it
            may hold the token).
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def remove_if_ours(path: Path, token: str) -> None:
    """Remove ``path`` if it still holds ``token`` (a newer instance may have written its own meanwhile)."""
    try:
        current = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(current, dict) and current.get("token") == token:
            path.unlink()
    except (OSError, ValueError):
        pass
