"""``openhuman-desktop rpc METHOD [PARAMS_JSON]``: call a running instance through ``run/rpc.json``."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

import httpx

from openhuman_desktop.rpc.protocol import METHOD_PREFIX

EXIT_OK, EXIT_RPC_ERROR, EXIT_NO_INSTANCE = 0, 1, 2


class NoInstance(Exception):
    """No running instance could be reached; the message says why and what to do."""


def read_endpoint(rpc_file: Path) -> tuple[str, str]:
    """The URL and token a running instance published.

    Raises:
        NoInstance: the file is missing or unreadable.
    """
    try:
        data = json.loads(rpc_file.read_text(encoding="utf-8"))
        return str(data["url"]), str(data["token"])
    except FileNotFoundError:
        raise NoInstance(
            f"No OpenHuman instance is running for this workspace ({rpc_file} does not exist); "
            "start one with `openhuman-desktop --headless`."
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise NoInstance(f"{rpc_file} cannot be read ({exc}); restart OpenHuman to write it again.") from None


def call(rpc_file: Path, method: str, params: Any = None, timeout: float = 30.0,
         http: httpx.Client | None = None) -> Any:
    """Send one request and return the decoded JSON-RPC response document.

    Args:
        http: a client to reuse its connection (``chat`` calls many times); None sends with a new one.

    Raises:
        NoInstance: nothing answers at the published address.
    """
    url, token = read_endpoint(rpc_file)
    if not method.startswith(METHOD_PREFIX):
        method = METHOD_PREFIX + method
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        body["params"] = params
    try:
        post = http.post if http is not None else httpx.post
        response = post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=timeout)
    except httpx.TransportError as exc:
        raise NoInstance(
            f"No OpenHuman instance answers at {url} ({exc.__class__.__name__}); it may have stopped without "
            "cleaning up. Start it with `openhuman-desktop --headless`."
        ) from None
    if response.status_code == 401:
        raise NoInstance(f"The instance at {url} refused the token in {rpc_file}; restart OpenHuman.")
    try:
        return response.json()
    except ValueError:
        raise NoInstance(f"The instance at {url} answered HTTP {response.status_code} without JSON.") from None


def main(rpc_file: Path, method: str, params_json: str | None, out: TextIO = sys.stdout,
         err: TextIO = sys.stderr) -> int:
    """The ``rpc`` command: result JSON on stdout (exit 0), ``error CODE: MESSAGE`` on stderr (exit 1)."""
    params = None
    if params_json is not None:
        try:
            params = json.loads(params_json)
        except ValueError as exc:
            _say(f"PARAMS_JSON is not valid JSON: {exc}", err)
            return EXIT_NO_INSTANCE
    try:
        document = call(rpc_file, method, params)
    except NoInstance as exc:
        _say(str(exc), err)
        return EXIT_NO_INSTANCE
    if isinstance(document, dict) and "error" in document:
        error = document["error"] or {}
        _say(f"error {error.get('code')}: {error.get('message')}", err)
        return EXIT_RPC_ERROR
    result = document.get("result") if isinstance(document, dict) else document
    problem = _say(json.dumps(result, indent=2, ensure_ascii=False), out)
    if problem is not None:
        _say(f"The answer could not be written to standard output ({problem}).", err)
        return EXIT_RPC_ERROR
    return EXIT_OK


def _say(text: str, stream: TextIO) -> str | None:
    """Print a line; a reader that stopped early (``rpc … | head``) is no failure and gets no traceback.

    Returns:
        None when the line was written (or its reader had gone), else what went wrong in words (a full disk,
        a closed stream), for the caller to say on the other stream.
    """
    try:
        print(text, file=stream)
        stream.flush()
    except BrokenPipeError:
        _silence(stream)
    except ValueError:  # the stream was closed
        return "it is closed"
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            return "the disk is full"
        return exc.strerror or str(exc)
    return None


def _silence(out: TextIO) -> None:
    """Point ``out``'s descriptor at /dev/null so that the flush at exit cannot raise again (CPython's advice)."""
    try:
        fileno = out.fileno()
    except (OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fileno)
    finally:
        os.close(devnull)
