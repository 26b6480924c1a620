"""``openhuman-desktop chat [--thread ID] MESSAGE``: send a message to the running instance and print the answer as
it streams (CONTRACT §8), its Markdown rendered for the terminal (:mod:`openhuman_desktop.rpc.terminal`).

``--thread`` takes a thread id (``cli``, ``desktop``, ``webapp:<session>``, ``telegram:<chat_id>``, ``cli:<name>``)
or any name a person types for a conversation of their own, which becomes thread ``cli:<name>``."""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import Any, TextIO

import httpx

from openhuman_desktop.orchestration.threads import CHANNEL_SOURCES
from openhuman_desktop.rpc import client
from openhuman_desktop.rpc.client import EXIT_NO_INSTANCE, EXIT_OK, EXIT_RPC_ERROR, NoInstance
from openhuman_desktop.rpc.terminal import TerminalMarkdown, wants_ansi

DEFAULT_THREAD = "cli"
FOLLOW_SECONDS = 25.0
"""How long one long-poll waits for more of the answer (the server allows up to 30 s)."""
EXIT_INTERRUPTED = 130


class _Failed(Exception):
    """The instance answered with a JSON-RPC error; the message is ``error CODE: MESSAGE``."""


def thread_for(name: str) -> str:
    """The thread ``--thread NAME`` means: a thread id of a channel as it is (``cli``, ``desktop``,
    ``webapp:<session>``, ``telegram:<chat_id>``, ``cli:<name>`` …), any other name as ``cli:NAME`` (spaces
    around it dropped)."""
    name = name.strip()
    source, colon, rest = name.partition(":")
    if source in CHANNEL_SOURCES and (not colon or rest.strip()):
        return name
    return f"cli:{name}"


class _Output:
    """The answer on stdout as it streams, its Markdown rendered for a terminal (plain text for a pipe or a
    file); a reader that went away (``chat … | head``) is no failure. ``written`` is the answer as it came."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._render = TerminalMarkdown(ansi=wants_ansi(out))
        self.written = ""
        self.problem: str | None = None

    def write(self, text: str) -> None:
        if not text:
            return
        self.written += text
        self._show(self._render.feed(text))

    def end(self) -> None:
        """The answer is complete: show what was held back (a marker still waiting for its other half)."""
        self._show(self._render.finish())

    def _show(self, text: str) -> None:
        if not text or self.problem is not None:
            return
        try:
            self._out.write(text)
            self._out.flush()
        except BrokenPipeError:
            client._silence(self._out)
            self.problem = ""
        except ValueError:  # the stream was closed
            self.problem = "it is closed"
        except OSError as exc:
            self.problem = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))


def _result(rpc_file: Path, http: httpx.Client, method: str, params: dict[str, Any]) -> Any:
    document = client.call(rpc_file, method, params, timeout=FOLLOW_SECONDS + 15, http=http)
    if isinstance(document, dict) and "error" in document:
        error = document["error"] or {}
        raise _Failed(f"error {error.get('code')}: {error.get('message')}")
    return document.get("result") if isinstance(document, dict) else None


def main(rpc_file: Path, message: str, thread_id: str = DEFAULT_THREAD, out: TextIO = sys.stdout,
         err: TextIO = sys.stderr) -> int:
    """Send ``message`` on ``thread_id`` (see :func:`thread_for`) and follow its run to the end.

    Returns:
        0 when the run completed (its answer printed, with a newline at the end); 1 when it failed or was
        cancelled (its reason on stderr) or the instance refused the request; 2 when no instance answers.
    """
    shown = _Output(out)
    run_id: str | None = None
    try:
        with httpx.Client() as http:
            sent = _result(rpc_file, http, "agent_send", {"text": message, "thread_id": thread_for(thread_id)})
            run_id = str(sent["run_id"])
            offset = 0
            while True:
                found = _result(rpc_file, http, "agent_run_follow",
                                {"run_id": run_id, "after": offset, "timeout": FOLLOW_SECONDS})
                shown.write(str(found.get("text") or ""))
                offset = int(found.get("offset", offset))
                run = found.get("run")
                if run is not None:
                    return _finished(run, shown, err)
    except NoInstance as exc:
        if run_id is not None:
            shown.end()
            shown.write("\n")
            client._say(f"{exc} The run ({run_id}) goes on when OpenHuman starts again.", err)
        else:
            client._say(str(exc), err)
        return EXIT_NO_INSTANCE
    except _Failed as exc:
        if shown.written:
            shown.end()
            shown.write("\n")
        client._say(str(exc), err)
        return EXIT_RPC_ERROR
    except KeyboardInterrupt:
        shown.end()
        shown.write("\n")
        client._say(f"Stopped following; the run ({run_id or 'not started'}) goes on in OpenHuman.", err)
        return EXIT_INTERRUPTED


def _finished(run: dict[str, Any], shown: _Output, err: TextIO) -> int:
    """The end of a run: the rest of its answer when the stream did not carry all of it (a run resumed after a
    restart streams only what it writes from then on), the newline, and the exit code."""
    response = run.get("response")
    if run.get("status") == "completed" and isinstance(response, str):
        if not shown.written:
            shown.write(response)
        elif response.startswith(shown.written):
            shown.write(response[len(shown.written):])
    shown.end()
    if shown.written or run.get("status") == "completed":
        shown.write("\n")
    if shown.problem:
        client._say(f"The answer could not be written to standard output ({shown.problem}).", err)
        return EXIT_RPC_ERROR
    if run.get("status") == "completed":
        return EXIT_OK
    reason = run.get("error") or f"the run ended {run.get('status')}"
    client._say(f"openhuman-desktop chat: {reason}", err)
    return EXIT_RPC_ERROR
