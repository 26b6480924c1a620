"""``doctor`` says whether token counts are exact: the offline tokenizer data is found and loads (in the
installed bundle too, where packaging/smoke.py reads this line), or which file is missing and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import doctor
from openhuman_desktop.llm import tokens
from openhuman_desktop.paths import Paths


def test_the_tokenizer_line_says_counts_are_exact() -> None:
    check = doctor.check_tokenizer()
    assert check.ok, check.line()
    assert check.line().startswith("ok   tokenizer: cl100k_base")
    assert "exact" in check.detail


def test_missing_tokenizer_data_fails_with_a_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def missing(name: str) -> Path:
        raise tokens.TokenDataUnavailableError(f"bpe-openai does not provide {name}.tiktoken.gz (searched [])")

    monkeypatch.setattr(tokens, "bpe_file", missing)
    check = doctor.check_tokenizer()
    assert not check.ok
    assert "estimates" in check.detail and "cl100k_base.tiktoken.gz" in check.detail
    assert "fix: " in check.line() and "bpe-openai" in check.fix


async def test_doctor_runs_the_tokenizer_check(tmp_path: Path) -> None:
    names = [check.name for check in await doctor.run_checks(Paths(tmp_path / "ws"))]
    assert "tokenizer" in names
