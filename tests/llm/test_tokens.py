"""TokenCounter: real tiktoken counts with no network, and a quiet estimate when the data is missing."""

from __future__ import annotations

import gzip
import logging
import random
import socket
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from tiktoken_ext import openai_public  # type: ignore[import-untyped]

from openhuman_desktop.llm import TokenCounter, tokens


class NetworkBlockedError(AssertionError):
    """Raised by any attempt to open a connection."""


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget encodings loaded by earlier tests, so this test loads them itself."""
    monkeypatch.setattr(tokens, "_loaded", {})


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_cache: None) -> Path:
    """No socket can connect, and tiktoken's own cache directory is empty."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NetworkBlockedError("this test must not touch the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    return cache


def test_network_really_is_blocked(offline: Path) -> None:
    with pytest.raises(NetworkBlockedError):
        socket.create_connection(("openaipublic.blob.core.windows.net", 443))


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_counts_offline_with_an_empty_tiktoken_cache(offline: Path, name: str) -> None:
    counter = TokenCounter(name)
    assert counter.encoding_name == name
    assert counter.count("hello world") == 2
    assert counter.count("") == 0
    assert counter.is_exact
    assert list(offline.iterdir()) == []  # nothing was downloaded or cached by tiktoken


@pytest.mark.parametrize(
    ("name", "ids"),
    [  # the values tiktoken documents for these encodings
        ("cl100k_base", [83, 1609, 5963, 374, 2294, 0]),
        ("o200k_base", [83, 8251, 2488, 382, 2212, 0]),
    ],
)
def test_token_ids_match_tiktoken(offline: Path, name: str, ids: list[int]) -> None:
    encoding = tokens.load_encoding(name)
    assert encoding is not None
    assert encoding.encode("tiktoken is great!") == ids
    assert encoding.decode(ids) == "tiktoken is great!"


def test_default_encoding_is_cl100k() -> None:
    assert TokenCounter().encoding_name == "cl100k_base"
    assert TokenCounter().count("hello world") == 2


def test_encoding_is_loaded_once_per_process(fresh_cache: None) -> None:
    first, second = TokenCounter("cl100k_base"), TokenCounter("cl100k_base")
    first.count("x")
    assert tokens.load_encoding("cl100k_base") is tokens.load_encoding("cl100k_base")
    assert second._encoding() is first._encoding()


def test_special_token_text_is_counted_as_text() -> None:
    counter = TokenCounter()
    assert counter.count("<|endoftext|>") > 1
    assert counter.truncate("<|endoftext|> and more", 100) == "<|endoftext|> and more"


PIECES = ("a", "Zeta", " ", "  ", "\n", "\r\n", "\n\n", "\t", ".", ",", "'s", "'", "1", "456", "é", "ß", "中", "🙂",
          "-", "/", "\u00a0", "\u2028", "\x0b", "(", '"', "<|endoftext|>", "  \n", "\n ", "!\n", "/\n", "#", "\u0301")


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_line_starts_split_a_text_into_parts_whose_counts_add_up(name: str) -> None:
    encoding = tokens.load_encoding(name)
    assert encoding is not None
    randomness = random.Random(5)
    for _ in range(4000):
        text = "".join(randomness.choice(PIECES) for _ in range(randomness.randrange(1, 50)))
        parts = tokens._LINE_STARTS.split(text)
        assert "".join(parts) == text
        assert sum(len(encoding.encode_ordinary(part)) for part in parts) == len(encoding.encode_ordinary(text)), text


@pytest.mark.parametrize("name", tokens.ENCODINGS)
def test_a_long_text_is_counted_by_its_lines_exactly(name: str) -> None:
    counter = TokenCounter(name)
    encoding = tokens.load_encoding(name)
    assert encoding is not None
    lines = [f"- Task {n}: check /srv/data/{n}.csv for changes (read-only; schedule pending)" for n in range(300)]
    text = "Tasks:\n" + "\n".join(lines) + "\n/etc/hosts\n"
    assert counter.count(text) == len(encoding.encode_ordinary(text))
    changed = text.replace("Task 7:", "Task seven:")
    assert counter.count(changed) == len(encoding.encode_ordinary(changed)), "one line counted again, the rest cached"
    cut = counter.truncate(changed, 50)
    assert changed.startswith(cut) and 40 < len(encoding.encode_ordinary(cut)) <= 50


def test_truncate_keeps_a_prefix_within_the_budget() -> None:
    counter = TokenCounter()
    text = "The heartbeat wakes every five minutes and reads the task list. " * 20
    for limit in (1, 7, 50):
        cut = counter.truncate(text, limit)
        assert text.startswith(cut)
        assert 0 < counter.count(cut) <= limit
    assert counter.truncate(text, 10_000) == text
    assert counter.truncate(text, 0) == ""
    assert counter.truncate("", 5) == ""


def test_truncate_never_splits_a_character() -> None:
    counter = TokenCounter("cl100k_base")
    text = "héllo wörld 🙂🙂🙂 日本語のテキスト " * 3
    for limit in range(1, counter.count(text)):
        cut = counter.truncate(text, limit)
        assert "\ufffd" not in cut
        assert text.startswith(cut)
        assert counter.count(cut) <= limit


async def test_warm_up_loads_in_a_thread(fresh_cache: None) -> None:
    counter = TokenCounter("cl100k_base")
    await counter.warm_up()
    assert "cl100k_base" in tokens._loaded
    assert counter.count("hello world") == 2


def test_unknown_encoding_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="p50k_base"):
        TokenCounter("p50k_base")


def _missing(name: str) -> Path:
    raise tokens.TokenDataUnavailableError(f"no file for {name}")


def test_missing_data_falls_back_to_an_estimate_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, fresh_cache: None, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(tokens, "bpe_file", _missing)
    caplog.set_level(logging.WARNING, logger=tokens.__name__)
    counter = TokenCounter()
    assert counter.count("abcdefgh") == 3  # len // 4 + 1
    assert counter.count("hello world") == 3
    assert counter.count("") == 0
    assert not counter.is_exact
    assert TokenCounter().count("abc") == 1
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "estimates" in warnings[0].getMessage()


@pytest.mark.logs_expected(r"Token counts are estimates")
def test_estimated_truncate_fits_the_estimate(monkeypatch: pytest.MonkeyPatch, fresh_cache: None) -> None:
    monkeypatch.setattr(tokens, "bpe_file", _missing)
    counter = TokenCounter()
    text = "x" * 1000
    for limit in (1, 2, 10, 100):
        cut = counter.truncate(text, limit)
        assert counter.count(cut) == limit
        assert text.startswith(cut)
    assert counter.truncate("short", 100) == "short"


def test_a_corrupted_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, fresh_cache: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = tmp_path / "cl100k_base.tiktoken.gz"
    fake.write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    monkeypatch.setattr(tokens, "bpe_file", lambda name: fake)
    caplog.set_level(logging.WARNING, logger=tokens.__name__)
    counter = TokenCounter("cl100k_base")
    assert counter.count("abcdefgh") == 3
    assert "sha256 differs" in caplog.text


def test_a_file_that_is_not_gzip_is_refused(
    monkeypatch: pytest.MonkeyPatch, fresh_cache: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = tmp_path / "o200k_base.tiktoken.gz"
    fake.write_bytes(b"not gzip at all")
    monkeypatch.setattr(tokens, "bpe_file", lambda name: fake)
    caplog.set_level(logging.WARNING, logger=tokens.__name__)
    assert TokenCounter().count("abcd") == 2
    assert "cannot read" in caplog.text


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_constants_still_match_tiktoken_ext(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Our copy of pat_str, special tokens and file hash must equal tiktoken's own definition."""
    hashes: list[str | None] = []

    def fake_load(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        hashes.append(expected_hash)
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", fake_load)
    definition = getattr(openai_public, name)()
    spec = tokens._SPECS[name]
    assert definition["pat_str"] == spec.pat_str
    assert definition["special_tokens"] == dict(spec.special_tokens)
    assert hashes == [spec.sha256]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_same_vocabulary_as_tiktoken(name: str) -> None:
    encoding = tokens.load_encoding(name)
    assert isinstance(encoding, tiktoken.Encoding)
    assert encoding.name == name
    assert encoding.n_vocab == max(tokens._SPECS[name].special_tokens.values()) + 1
