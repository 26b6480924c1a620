"""Reading a database file with plain sqlite3, as a migration test looks at it before and after."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def schema_objects(path: Path) -> dict[tuple[str, str], str]:
    """(type, name) → table of every table and index, SQLite's own autoindexes included."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
        return {(kind, name): table for kind, name, table in rows}
    finally:
        conn.close()


def columns_of(path: Path, table: str) -> str:
    """The column names of ``table``, comma-separated, in order."""
    conn = sqlite3.connect(path)
    try:
        return ", ".join(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
    finally:
        conn.close()


def dump_columns(path: Path, table: str, columns: str) -> list[tuple[object, ...]]:
    """The rows of ``table`` with only ``columns`` (later migrations add columns of their own)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT rowid, {columns} FROM {table} ORDER BY rowid").fetchall()
    finally:
        conn.close()


def user_version(path: Path) -> int:
    """The schema version SQLite keeps in ``PRAGMA user_version``."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()
