"""JSON-RPC 2.0 framing: turn a request body into responses, whatever the body holds."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from openhuman_desktop.errors import Conflict, InvalidInput, NotFound, UserFacingError

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNAVAILABLE = -32000
NOT_FOUND = -32001
CONFLICT = -32002

MAX_BATCH = 1000
MAX_MESSAGE = 500  # an error message never echoes a megabyte of the request back
METHOD_PREFIX = "openhuman."

Json = Any
Handler = Callable[[str, dict[str, Any] | list[Any]], Awaitable[Json]]


class RpcError(Exception):
    """An error answer with a JSON-RPC code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_response(request_id: Json, code: int, message: str) -> dict[str, Json]:
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": request_id}


def _valid_id(value: Json) -> bool:
    return value is None or isinstance(value, str) or (
        isinstance(value, int | float) and not isinstance(value, bool)
    )


def _reject_constant(name: str) -> Json:
    """NaN and Infinity are not JSON (Python's parser would accept them and echo them back)."""
    raise ValueError(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    """A JSON number beyond the float range (``1e999``) would become ``inf`` and be echoed as ``Infinity``."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is out of range")
    return value


def loads(body: bytes | str) -> Json:
    """Strict JSON: NaN, Infinity and numbers that overflow a float are refused (``ValueError``)."""
    return json.loads(body, parse_constant=_reject_constant, parse_float=_finite_float)


def dumps(document: Json) -> str:
    """Strict JSON text: raises ``ValueError`` rather than write NaN or Infinity."""
    return json.dumps(document, allow_nan=False)


def map_exception(exc: BaseException) -> tuple[int, str]:
    """The code and message a service exception becomes; never a traceback, never longer than MAX_MESSAGE."""
    code, message = _classify(exc)
    return code, message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _classify(exc: BaseException) -> tuple[int, str]:
    if isinstance(exc, RpcError):
        return exc.code, exc.message
    if isinstance(exc, InvalidInput):
        return INVALID_PARAMS, f"Invalid params: {exc}"
    if isinstance(exc, NotFound):
        return NOT_FOUND, str(exc)
    if isinstance(exc, Conflict):
        return CONFLICT, str(exc)
    if isinstance(exc, UserFacingError):
        return UNAVAILABLE, str(exc)
    return INTERNAL_ERROR, "Internal error; the details are in the app's log file."


class Dispatcher:
    """Validates JSON-RPC envelopes and routes them to a handler.

    Args:
        handler: ``await handler(method, params)``; it raises ``RpcError``/service errors, or
            ``KeyError`` is never used — unknown methods must raise ``RpcError(METHOD_NOT_FOUND)``.
    """

    def __init__(self, handler: Handler) -> None:
        self._handler = handler

    async def handle_body(self, body: bytes) -> Json | None:
        """The response document for a body (None when it held only notifications)."""
        try:
            document = loads(body)
            # A lone surrogate ("\\ud800") parses, but no database or file can store it.
            json.dumps(document, ensure_ascii=False).encode("utf-8")
        except (ValueError, RecursionError):
            return error_response(None, PARSE_ERROR, "Parse error: the body is not valid JSON")
        if isinstance(document, list):
            if not document:
                return error_response(None, INVALID_REQUEST, "Invalid request: empty batch")
            if len(document) > MAX_BATCH:
                return error_response(None, INVALID_REQUEST, f"Invalid request: a batch holds at most {MAX_BATCH}")
            answers = [await self.handle_one(item) for item in document]
            batch = [answer for answer in answers if answer is not None]
            return batch or None
        return await self.handle_one(document)

    async def handle_one(self, request: Json) -> dict[str, Json] | None:
        """The response to one request object (None for a valid notification)."""
        if not isinstance(request, dict):
            return error_response(None, INVALID_REQUEST, "Invalid request: expected a JSON object")
        request_id = request.get("id")
        if not _valid_id(request_id):
            return error_response(None, INVALID_REQUEST, "Invalid request: id must be a string, number or null")
        if request.get("jsonrpc") != "2.0":
            return error_response(request_id, INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"')
        method = request.get("method")
        if not isinstance(method, str) or not method:
            return error_response(request_id, INVALID_REQUEST, 'Invalid request: "method" must be a string')
        params = request.get("params", {})
        if not isinstance(params, dict | list):
            return error_response(request_id, INVALID_REQUEST, 'Invalid request: "params" must be an object or array')
        is_notification = "id" not in request
        try:
            result = await self._handler(method, params)
        except Exception as exc:  # every failure becomes an error answer; bugs are logged in full
            code, message = map_exception(exc)
            if code == INTERNAL_ERROR:
                log.exception("RPC method %s failed", method)
            response = error_response(request_id, code, message)
        else:
            response = {"jsonrpc": "2.0", "result": result, "id": request_id}
        return None if is_notification else response
