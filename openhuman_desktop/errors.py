"""The exception tree: what the user may see versus what only the log keeps."""

from __future__ import annotations

import errno


class AppError(Exception):
    """Base of every error this application raises on purpose."""


class UserFacingError(AppError):
    """An error whose ``str()`` is one clear sentence that is safe to show the user as is."""


class ConfigError(UserFacingError):
    """The configuration file is invalid.

    Args:
        path: the file that holds the problem.
        key: the dotted key, e.g. ``heartbeat.interval_minutes``.
        value: the offending value (as read).
        expected: what would have been accepted.
    """

    def __init__(self, path: object, key: str, value: object, expected: str) -> None:
        self.path = str(path)
        self.key = key
        self.value = value
        self.expected = expected
        super().__init__(f"{self.path}: {key} = {value!r} is invalid: expected {expected}")


class StoreUnavailable(UserFacingError):
    """The database cannot be used right now (locked, read-only, disk full, I/O error)."""


class WorkspaceUnavailable(UserFacingError):
    """A file or folder of the workspace cannot be created, read or written (read-only, disk full, …)."""


# What an OS error means for the user, in words (the C library's "No space left on device" is not one).
_OS_ERRORS = {
    errno.ENOSPC: "the disk is full (disk full); free some space and start again",
    errno.EDQUOT: "the disk quota is used up (disk full for this user); free some space and start again",
    errno.EROFS: "the file system is read-only; use a workspace on a writable disk (--workspace DIR)",
    errno.EACCES: "permission denied; check the owner and permissions of the workspace folder",
    errno.EPERM: "the operation is not permitted; check the owner and permissions of the workspace folder",
    errno.EIO: "an I/O error happened; check the disk",
    errno.ENOTDIR: "a file is in the place of a folder",
    errno.EISDIR: "a folder is in the place of a file",
}


def os_error_sentence(exc: OSError) -> str:
    """The end of a sentence that says what ``exc`` means and what to do (ends with a full stop)."""
    meaning = _OS_ERRORS.get(exc.errno or 0) or (exc.strerror or str(exc) or type(exc).__name__)
    return meaning.rstrip(".") + "."


def workspace_error(exc: OSError, doing: str) -> WorkspaceUnavailable:
    """``exc``, raised while ``doing`` (e.g. "create the workspace"), as one sentence for the user."""
    where = f" {exc.filename}" if exc.filename else ""
    return WorkspaceUnavailable(f"OpenHuman cannot {doing}{where}: {os_error_sentence(exc)}")


class LlmUnavailable(UserFacingError):
    """A model endpoint cannot be used right now (down, missing model, refused key, server error)."""


class LlmTimedOut(LlmUnavailable):
    """The model endpoint was reached but did not answer in time (slow, busy): not the same as down."""


class InvalidInput(UserFacingError):
    """A request names a value the service refuses.

    Args:
        param: the parameter that was wrong.
        problem: what was wrong with it, in words.
    """

    def __init__(self, param: str, problem: str) -> None:
        self.param = param
        self.problem = problem
        super().__init__(f"{param}: {problem}")


class NotFound(UserFacingError):
    """A request names an id that does not exist."""


class Conflict(UserFacingError):
    """The operation is not allowed in the current state (e.g. removing a system task)."""


class Cancelled(AppError):
    """Work was cancelled on purpose (superseded tick, shutdown). Never shown to the user."""


class LlmReplyError(AppError):
    """A model server answered, but not usably (malformed body, not the requested JSON)."""


class ContextOverflow(LlmReplyError):
    """The prompt did not fit the model's context window (the server said so).

    Args:
        message: one sentence for the log and the activity row.
        prompt_tokens: the prompt's length in the model's own tokens, when the server said it.
        context_window: the context the server applied, in tokens, when it said so (llama.cpp: its window;
            Ollama: the ``num_ctx`` of this request).
    """

    def __init__(self, message: str, *, prompt_tokens: int | None = None, context_window: int | None = None) -> None:
        super().__init__(message)
        self.prompt_tokens = prompt_tokens
        self.context_window = context_window
