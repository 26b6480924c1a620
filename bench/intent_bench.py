"""Permission from words (issue 25): the labelled set (``tests/intent_phrasings.py``) through the classifier.

    python bench/intent_bench.py                                    # the words alone (~1 s)
    python bench/intent_bench.py --url http://127.0.0.1:8090/v1     # and a real model (OpenAI-compatible)
    python bench/intent_bench.py --url http://127.0.0.1:11434 --provider ollama --model llama3.2:3b
    python bench/intent_bench.py --quick                            # a slice (the smoke test)

The words alone: read phrasings classified ``write`` (each one would bypass the approval gate) and writes found
(each miss costs one click on a card), per kind (task titles, chat messages), and the time per phrasing.

With ``--url`` (for example SmolLM2 from ``bench/real_model_server.py``): whether the model passes the probes
(only then do its answers count), the model's own answers on a sample (``--sample``, every n-th phrasing), and
the classifier as the app runs it — the words narrowed by the model (:func:`narrow`): reads classified write,
writes kept, "May write?" questions the user would see, and the seconds per model answer. A model that does not
pass the probes changes nothing: the figures then equal the words'. Also the figures as if it had passed.

``BUDGET`` lines: 0 reads classified write; at most 10 % of writes missed. Nothing here fails on a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import real_model_server  # noqa: E402
from bench.common import budget, figure, load_note, machine, note  # noqa: E402
from openhuman_desktop.errors import AppError  # noqa: E402
from openhuman_desktop.llm import OllamaClient, OpenAICompatClient  # noqa: E402
from openhuman_desktop.llm.base import LlmClient  # noqa: E402
from openhuman_desktop.subconscious.intent import ModelIntentClassifier, narrow  # noqa: E402
from openhuman_desktop.subconscious.intent_words import read_request, read_uncut  # noqa: E402
from tests.intent_phrasings import PHRASINGS, Phrasing  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="every 10th phrasing, and at most 12 model questions")
    parser.add_argument("--url", help="a model server: OpenAI-compatible (…/v1) or Ollama (--provider ollama)")
    parser.add_argument("--provider", choices=("openai", "ollama"), default="openai")
    parser.add_argument("--model", default=real_model_server.MODEL_ALIAS, help="the model id it offers")
    parser.add_argument("--sample", type=int, default=4, help="ask the model about every n-th phrasing (default 4)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per model answer")
    return parser.parse_args(argv)


def counts(phrasings: Sequence[Phrasing], intents: Sequence[str]) -> tuple[int, int, int, int]:
    """(reads classified write, reads, writes found, writes)."""
    false_writes = sum(p.intent == "read" and i == "write" for p, i in zip(phrasings, intents, strict=True))
    found = sum(p.intent == "write" and i == "write" for p, i in zip(phrasings, intents, strict=True))
    reads = sum(p.intent == "read" for p in phrasings)
    return false_writes, reads, found, len(phrasings) - reads


def report(label: str, phrasings: Sequence[Phrasing], intents: Sequence[str]) -> tuple[int, float]:
    """Print the figures of ``intents`` against the labels; returns (reads classified write, share found)."""
    false_writes, reads, found, writes = counts(phrasings, intents)
    share = found / writes if writes else 1.0
    print(f"{label}: {false_writes} of {reads} reads classified write; {found} of {writes} writes found "
          f"({share:.1%})", flush=True)
    for kind in ("task", "chat"):
        picked = [(p, i) for p, i in zip(phrasings, intents, strict=True) if p.kind == kind]
        if picked:
            k_false, k_reads, k_found, k_writes = counts([p for p, _ in picked], [i for _, i in picked])
            print(f"{label}, {kind}s: {k_false} of {k_reads} reads classified write; {k_found} of {k_writes} "
                  f"writes found", flush=True)
    return false_writes, share


def words_alone(phrasings: Sequence[Phrasing]) -> tuple[int, float]:
    samples: list[float] = []
    intents: list[str] = []
    for phrasing in phrasings:
        started = time.perf_counter()
        intents.append(read_uncut.__wrapped__(phrasing.text).intent)   # uncached, as for a new title
        samples.append((time.perf_counter() - started) * 1000)
    result = report("intent words", phrasings, intents)
    figure("intent words, time per phrasing", samples)
    for phrasing, intent in zip(phrasings, intents, strict=True):
        if phrasing.intent == "read" and intent == "write":
            note(f"read classified write: {phrasing.text!r} ({read_request(phrasing.text).instruction!r})")
    return result


def make_client(args: argparse.Namespace) -> LlmClient:
    if args.provider == "ollama":
        return OllamaClient(args.model, args.url, timeout=args.timeout)
    return OpenAICompatClient(args.model, args.url, api_key_env=None, timeout=args.timeout)


async def with_model(args: argparse.Namespace, phrasings: Sequence[Phrasing]) -> None:
    client = make_client(args)
    classifier = ModelIntentClassifier(lambda: client, timeout=args.timeout)
    try:
        started = time.perf_counter()
        try:
            trusted = await classifier.trusts_model()
        except (AppError, TimeoutError) as exc:
            note(f"the model did not answer the probes: {exc or type(exc).__name__}")
            return
        note(f"probes: the model {'passed' if trusted else 'did not pass'} "
             f"({time.perf_counter() - started:.1f} s); its answers {'count' if trusted else 'do not count'}")
        sample = list(phrasings[::max(1, args.sample)])
        if args.quick:
            sample = sample[:12]
        answers: list[str | None] = []
        seconds: list[float] = []
        for number, phrasing in enumerate(sample, 1):
            asked = time.perf_counter()
            try:
                answer = await classifier.raw_answer(phrasing.text)
            except (AppError, TimeoutError) as exc:
                note(f"no answer for {phrasing.text!r}: {exc or type(exc).__name__}")
                answer = None
            seconds.append((time.perf_counter() - asked) * 1000)
            answers.append(answer[0] if answer is not None and answer[1] else None)
            if number % 50 == 0:
                note(f"{number} of {len(sample)} asked")
        words = [read_request(p.text).intent for p in sample]
        raw = [answer or "unsure" for answer in answers]
        right = sum(a == p.intent for a, p in zip(raw, sample, strict=True))
        said = Counter(raw)
        print(f"intent model alone: {right} of {len(sample)} right; answers {dict(sorted(said.items()))}", flush=True)
        figure("intent model, time per answer", seconds)
        report("intent words (same sample)", sample, words)
        judged = [narrow(w, a) for w, a in zip(words, answers, strict=True)]
        report("intent words narrowed by the model, as if it passed the probes", sample, [j.intent for j in judged])
        asks = sum(j.suggestion is not None for j in judged)
        print(f"intent words narrowed by the model, as if it passed: {asks} \"May write?\" questions "
              f"({sum(j.suggestion is not None and p.intent == 'write' for j, p in zip(judged, sample, strict=True))}"
              f" on writes, the rest on reads)", flush=True)
        product = [j.intent for j in judged] if trusted else words
        report("intent as the app runs it (words, narrowed only by a model that passed the probes)", sample, product)
    finally:
        await client.aclose()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    handler = logging.StreamHandler(sys.stdout)   # the classifier's own line on the probes: how many were right
    handler.setFormatter(logging.Formatter("# %(message)s"))
    logging.getLogger("openhuman_desktop.subconscious.intent").addHandler(handler)
    logging.getLogger("openhuman_desktop.subconscious.intent").setLevel(logging.INFO)
    note(machine())
    load_note()
    phrasings = list(PHRASINGS[::10]) if args.quick else list(PHRASINGS)
    note(f"{len(phrasings)} labelled phrasings ({sum(p.intent == 'write' for p in phrasings)} writes)")
    false_writes, found = words_alone(phrasings)
    if args.url:
        asyncio.run(with_model(args, phrasings))
    budget("intent reads classified write", false_writes, 0, "phrasings")
    budget("intent writes missed", (1 - found) * 100, 10, "%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
