"""Change config.toml the way a person would: values set in place, their comments and layout kept (tomlkit).

The Settings window and the first-run set-up write through :class:`ConfigEdit`. It records changes rather than
a whole document: :meth:`ConfigEdit.save` reads the file again, applies the changes to what is on disk now (an
edit made in a text editor meanwhile is kept), checks the result with the loader (same sentences as at start)
and replaces the file atomically. The running app then applies it like any other edit of the file.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import threading
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable, Table

from openhuman_desktop import config
from openhuman_desktop.errors import ConfigError

_SAVING = threading.Lock()

REMOVE = object()
"""The value that removes a key (or a whole table) instead of setting it."""


@dataclass(frozen=True)
class Change:
    """One key to set (``value``) or remove (``REMOVE``); ``key`` is dotted, e.g. ``"models.local.model"``."""

    key: str
    value: Any


class ConfigEdit:
    """Pending changes to one config.toml.

    Args:
        path: the workspace's config.toml (a missing file starts from the commented default).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._changes: dict[str, Change] = {}

    @property
    def changes(self) -> tuple[Change, ...]:
        return tuple(self._changes.values())

    def set(self, key: str, value: Any) -> None:
        """Set ``key`` (dotted) to ``value``; ``REMOVE`` deletes it. The last change of a key wins."""
        if not key or any(not part for part in key.split(".")):
            raise ValueError(f"not a dotted key: {key!r}")
        self._changes.pop(key, None)  # re-inserted last: the order of changes is the order they were made
        self._changes[key] = Change(key, value)

    def update(self, values: Mapping[str, Any]) -> None:
        for key, value in values.items():
            self.set(key, value)

    def render(self) -> str:
        """The file's text with the changes applied (not written).

        Raises:
            ConfigError: the file on disk cannot be read or is not TOML (the loader's sentences).
        """
        original = current_text(self.path)
        document = _read_document(self.path, original)
        expected = document.unwrap()
        for change in self._changes.values():
            try:
                _apply(document, change, self.path)
            except (TOMLKitError, ValueError, TypeError) as exc:   # tomlkit refuses a layout it cannot extend
                raise _layout_error(self.path, change.key) from exc
            _apply_plain(expected, change)
        text = tomlkit.dumps(document)
        if "\r\n" in original and "\n" not in original.replace("\r\n", ""):   # Windows line endings throughout
            text = re.sub(r"(?<!\r)\n", "\r\n", text)   # the lines added or re-written get them too
        _check_layout(self.path, text, expected, self.changes)
        return text

    def check(self, environ: Mapping[str, str] | None = None) -> config.LoadedConfig:
        """Validate the changed file like the loader does at start.

        Raises:
            ConfigError: a value is invalid; the message is the loader's (file, key, value, expectation).
        """
        return _parse(self.path, self.render(), environ)

    def save(self, environ: Mapping[str, str] | None = None) -> config.LoadedConfig:
        """Check, then replace config.toml atomically (mode 0600). Nothing is written when the check fails.

        Raises:
            ConfigError: an invalid value (nothing written), or the file cannot be written.
        """
        with _SAVING:   # two windows saving at once: each applies its changes on the file the other wrote
            text = self.render()
            loaded = _parse(self.path, text, environ)
            size = len(text.encode("utf-8"))
            if size > config.MAX_CONFIG_BYTES:   # the loader would refuse the file it is given
                raise ConfigError(self.path, "(file)", f"{size:,} bytes once saved",
                                  f"at most {config.MAX_CONFIG_BYTES // 1024} KiB; shorten its comments in a text "
                                  "editor")
            _write_atomically(self.path, text)
        self._changes.clear()
        return loaded


def current_text(path: Path) -> str:
    """config.toml's text, or the commented default when there is none yet."""
    try:
        return config.read_small_file(path).decode("utf-8-sig")   # a byte order mark is dropped, as the loader does
    except FileNotFoundError:
        return config.DEFAULT_CONFIG_TEXT
    except UnicodeDecodeError as exc:
        raise ConfigError(path, "(file)", "bytes that are not UTF-8", "a UTF-8 text file") from exc
    except OSError as exc:
        raise ConfigError(path, "(file)", exc.strerror, "a readable file") from exc


def _read_document(path: Path, text: str) -> tomlkit.TOMLDocument:
    try:
        tomllib.loads(text)  # the loader's own parser decides what is valid, and says it in its words
        return tomlkit.parse(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "(syntax)", str(exc), "valid TOML (https://toml.io)") from exc
    except (TOMLKitError, RecursionError) as exc:
        raise ConfigError(path, "(syntax)", str(exc), "valid TOML (https://toml.io)") from exc


def _apply(document: tomlkit.TOMLDocument, change: Change, path: Path) -> None:
    *tables, name = change.key.split(".")
    container: Any = document
    for part in tables:
        inner = container.get(part)
        if inner is None:
            if change.value is REMOVE:
                return
            if isinstance(container, InlineTable):   # inside ``models = { … }`` only inline tables may go
                inner = tomlkit.inline_table()
            else:
                # [models.local] and [skills.mcp.NAME] without empty [models], [skills] or [skills.mcp] above them
                inner = tomlkit.table(is_super_table=(container is document and part in ("models", "skills"))
                                      or (part == "mcp" and container is document.get("skills")))
            container[part] = inner
        elif not isinstance(inner, Table | InlineTable | dict):
            raise ConfigError(path, ".".join(tables), inner, "a table like [" + ".".join(tables) + "]")
        container = inner
    if change.value is REMOVE:
        if name in container:
            del container[name]
        return
    value = list(change.value) if isinstance(change.value, tuple) else change.value
    # .item(), not .get(): get() unwraps true/false into a plain bool, which has no trivia (comment column).
    existing = container.item(name) if name in container and hasattr(container, "item") else None
    old_width = len(existing.as_string()) if isinstance(existing, tomlkit.items.Item) else None
    old_gap = existing.trivia.comment_ws if isinstance(existing, tomlkit.items.Item) else ""
    if isinstance(value, dict) and not isinstance(value, InlineTable) and name not in container:
        if isinstance(container, InlineTable):
            inline = tomlkit.inline_table()
            inline.update(value)
            container[name] = inline
            return
        table = tomlkit.table()
        table.update(value)
        table.add(tomlkit.nl())
        container[name] = table
        return
    container[name] = value
    item = container.item(name) if hasattr(container, "item") else None
    if old_width is not None and isinstance(item, tomlkit.items.Item) and item.trivia.comment:
        # Keep the comment in its column: the gap before it shrinks (or grows) by what the value gained.
        item.trivia.comment_ws = " " * max(1, len(old_gap) + old_width - len(item.as_string()))


def _apply_plain(data: dict[str, Any], change: Change) -> None:
    """``change`` on plain dicts: what the file must read as once tomlkit has written it."""
    *tables, name = change.key.split(".")
    container = data
    for part in tables:
        inner = container.get(part)
        if not isinstance(inner, dict):
            if change.value is REMOVE:
                return
            inner = container[part] = {}
        container = inner
    if change.value is REMOVE:
        container.pop(name, None)
    elif isinstance(change.value, tuple | list):
        container[name] = list(change.value)
    elif isinstance(change.value, dict):
        container[name] = dict(change.value)
    else:
        container[name] = change.value


def _check_layout(path: Path, text: str, expected: dict[str, Any], changes: tuple[Change, ...]) -> None:
    """Refuse a rendering that reads back as something else than what was asked (tomlkit can misplace a dotted
    key such as ``models.local.model = …`` under a table added after it): nothing is written then."""
    try:
        written = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        written = None
    if written == expected:
        return
    key = next((c.key for c in changes if _lookup(written, c.key) != _lookup(expected, c.key)),
               changes[-1].key if changes else "(file)")
    raise _layout_error(path, key)


def _layout_error(path: Path, key: str) -> ConfigError:
    return ConfigError(
        path, key, "a value this file's layout cannot take in place",
        "the setting under its own [table] header; this config.toml uses dotted keys or inline tables that "
        "saving here would move, so change it in a text editor",
    )


def _lookup(data: object, key: str) -> object:
    for part in key.split("."):
        if not isinstance(data, dict) or part not in data:
            return REMOVE
        data = data[part]
    return data


def _parse(path: Path, text: str, environ: Mapping[str, str] | None) -> config.LoadedConfig:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "(syntax)", str(exc), "valid TOML (https://toml.io)") from exc
    return config.parse(doc, path, environ)


def _write_atomically(path: Path, text: str) -> None:
    """Write next to ``path``, flush to disk, then rename over it: a crash leaves the old file or the new one.

    A symlinked config.toml (into the user's dotfiles) is written through: the link stays. A read-only file
    (no write bit: how a person protects it) is refused, not replaced by the rename.
    """
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise ConfigError(path, "(file)", exc.strerror or str(exc), "a file OpenHuman can write") from exc
    if mode is not None and not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise ConfigError(path, "(file)", "read-only",
                          "a file OpenHuman can write (make it writable, e.g. chmod u+w, then save again)")
    temporary = path
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)   # 0600, unique
        temporary = Path(name)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        if temporary != path:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise ConfigError(path, "(file)", exc.strerror or str(exc), "a file OpenHuman can write") from exc
