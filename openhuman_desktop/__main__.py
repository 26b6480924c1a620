"""Command line: parse the arguments, then run headless, the GUI, ``rpc`` or ``doctor``."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from openhuman_desktop import __version__, applog, config
from openhuman_desktop.errors import ConfigError, UserFacingError, workspace_error
from openhuman_desktop.paths import Paths, resolve_workspace

DESCRIPTION = """\
OpenHuman Desktop: a private assistant in your system tray. It looks at your tasks on a heartbeat,
lets a local model decide what needs doing, and asks before doing anything you did not ask for.

With no command it starts the tray app; --headless runs the same engine and channels (web app,
Telegram) without a window."""

EPILOG = """\
commands:
  rpc METHOD [PARAMS_JSON]  call a running instance, e.g.
                            openhuman-desktop rpc subconscious_tasks_add '{"title": "Check my inbox"}'
  chat [--thread ID] MESSAGE
                            ask the assistant; the answer streams into the terminal, e.g.
                            openhuman-desktop chat "What is in notes/todo.md?"
                            openhuman-desktop chat --thread work "Plan my week"
  doctor                    check workspace, config, databases, models and channels

The workspace is --workspace DIR, else $OPENHUMAN_WORKSPACE, else the platform's data folder."""


def parser() -> argparse.ArgumentParser:
    """The argument parser (also documents the commands in --help)."""
    main = argparse.ArgumentParser(
        prog="openhuman-desktop", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    main.add_argument("--version", action="version", version=f"openhuman-desktop {__version__}")
    main.add_argument("--workspace", metavar="DIR", help="workspace directory (env OPENHUMAN_WORKSPACE)")
    main.add_argument("--headless", action="store_true", help="run without a GUI until SIGINT/SIGTERM")
    commands = main.add_subparsers(dest="command", metavar="command")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--workspace", metavar="DIR", default=argparse.SUPPRESS, help="workspace directory")
    rpc = commands.add_parser("rpc", parents=[common], help="call a running instance",
                              description="Call METHOD (the openhuman. prefix may be left out) on a running "
                              "instance and print the JSON result. Exit 1 on a JSON-RPC error, 2 when no "
                              "instance runs.")
    rpc.add_argument("method")
    rpc.add_argument("params", nargs="?", metavar="PARAMS_JSON", help="a JSON object or array")
    chat = commands.add_parser("chat", parents=[common], help="send a message to the assistant",
                               description="Send MESSAGE to the running instance and print the answer as it "
                               "streams, its Markdown shown as text (bold, italic and code in colour on a "
                               "terminal). Exit 0 when the answer is complete, 1 when the run failed or was "
                               "stopped (its reason on stderr), 2 when no instance runs.")
    chat.add_argument("--thread", metavar="ID", default="cli",
                      help="the conversation: any name of your own, e.g. work (kept as thread cli:work), or a "
                      "thread id: cli (the default), desktop, webapp:<session>, telegram:<chat_id>")
    chat.add_argument("message", nargs="+", metavar="MESSAGE", help="the message (several words are joined)")
    commands.add_parser("doctor", parents=[common], help="check workspace, config, databases, models and channels",
                        description="Check the workspace, config, database and every configured model "
                        "endpoint. Exit 0 only when all checks pass.")
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``openhuman-desktop`` and ``python -m openhuman_desktop``."""
    args = parser().parse_args(argv)
    paths = Paths(resolve_workspace(args.workspace))
    if args.command == "rpc":
        from openhuman_desktop.rpc import client
        return client.main(paths.rpc_file, args.method, args.params)
    if args.command == "chat":
        from openhuman_desktop.rpc import chat
        return chat.main(paths.rpc_file, " ".join(args.message), args.thread)
    if args.command == "doctor":
        from openhuman_desktop import doctor
        return doctor.main(paths)
    try:
        return start(paths, headless=args.headless)
    except UserFacingError as exc:  # config, database, workspace, port taken, already running, no display
        return startup_failed(str(exc))
    except OSError as exc:  # anything the layers below did not put in words yet
        return startup_failed(str(workspace_error(exc, "start")))


def start(paths: Paths, *, headless: bool) -> int:
    """Prepare the workspace, logging and settings, then run headless or the tray app.

    Raises:
        UserFacingError: start-up cannot go on; the message says why and what to do.
    """
    paths.ensure()
    applog.setup(paths.log_file, console_level=logging.INFO if headless else logging.WARNING)
    if not headless:
        from openhuman_desktop.qt import x11  # no Qt in it: the display and Qt's X libraries, before Qt loads

        problem = x11.display_problem()
        if problem is not None:
            raise UserFacingError(problem)
        from openhuman_desktop.qt import app  # PySide6 only now: --headless never loads Qt
    try:
        loaded = config.load(paths.config_file)
    except ConfigError as exc:
        if headless:
            raise
        return app.config_error(paths, exc)
    for warning in loaded.warnings:
        logging.getLogger("openhuman_desktop.config").warning("%s", warning)
    if headless:
        from openhuman_desktop import headless as headless_mode
        return headless_mode.run(paths, loaded)
    return app.run(paths, loaded)


def startup_failed(sentence: str) -> int:
    """Say why the app could not start: one line on stderr (and in the log, when there is one); exit 2."""
    if applog.is_set_up():
        logging.getLogger(__name__).error("could not start: %s", sentence, extra=applog.FILE_ONLY)
    print(f"openhuman-desktop: {sentence}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
