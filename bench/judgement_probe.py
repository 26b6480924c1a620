"""Does a model's answer carry signal where the app's rules do not decide? Other ways of asking, measured offline.

``judgement.py --json`` keeps, for each task the product asked a narrow question, the question itself and
whether the app's evidence found what the task waits for in the change. This script asks a model the same
thing in other shapes, with no reasoning written first, and reads the answer's first token's log-probabilities
(an OpenAI-compatible server: llama.cpp's gives them):

- ``whole``: "Does the text show that the statement is true?" with every changed line as the text; the score is
  log P(yes) - log P(no), also calibrated by the same question about an empty change ("(nothing)");
- ``lines``: the same question about each changed line alone (at most 12); the score is the best line's;
- ``pick``: the changed lines numbered, "Which line shows that …? 0 if none"; the score is the best line
  number's log-probability less that of 0.

It prints the ROC area of the score between the tasks labelled ``act`` or ``escalate`` and the ``noop`` ones,
apart for tasks where the change says what they wait for and where it does not (0.5: a coin). The labels
come from the set, so keep a blind set's first look on record before probing it.

    python bench/judgement.py --constant no --set holdout27 --json h27.json
    python bench/judgement_probe.py --url http://127.0.0.1:8302/v1 --design whole h27.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

NO_CHANGE = "(nothing)"
SYSTEM_CHECK = "You check one statement against one piece of text. Answer only yes or no."
SYSTEM_PICK = ("You read the lines that changed on a computer and find the one that shows an event. Answer with a "
               "number only.")
MOST_LINES = 12


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="an OpenAI-compatible server (…/v1)")
    parser.add_argument("--model", default="model", help="the model id to send")
    parser.add_argument("--design", choices=("whole", "lines", "pick"), default="whole")
    parser.add_argument("results", nargs="+", type=Path, help="judgement.py --json files")
    return parser.parse_args(argv)


def question_parts(question: str) -> tuple[str, list[str]]:
    """What the task waits for and the changed lines, from a narrow question's text (``question.question_text``);
    a line under a file's heading keeps the file's name."""
    waits = next(line.removeprefix("It waits for: ") for line in question.splitlines()
                 if line.startswith("It waits for: "))
    shown = question.split("What changed:\n", 1)[1].rsplit("\n\n", 1)[0]
    lines: list[str] = []
    heading = ""
    for line in shown.splitlines():
        if line.startswith(("- File ", "- New file ")):
            heading = line[2:].rstrip(":")
        elif line.startswith("- "):
            heading = ""
            lines.append(line[2:])
        elif line.strip():
            lines.append(f"{heading}: {line.strip()}" if heading else line.strip())
    return waits, lines[:MOST_LINES] or [shown[:300]]


class Probe:
    """First-token log-probabilities from an OpenAI-compatible chat endpoint."""

    def __init__(self, url: str, model: str) -> None:
        self._url = url.rstrip("/") + "/chat/completions"
        self._model = model
        self._http = httpx.Client(timeout=300)

    def close(self) -> None:
        self._http.close()

    def first_token(self, system: str, user: str) -> dict[str, float]:
        body = {"model": self._model, "messages": [{"role": "system", "content": system},
                                                   {"role": "user", "content": user}],
                "max_tokens": 1, "temperature": 0, "logprobs": True, "top_logprobs": 20}
        data: dict[str, Any] = self._http.post(self._url, json=body).raise_for_status().json()
        top = data["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        best: dict[str, float] = {}
        for entry in top:
            word = entry["token"].strip().lower()
            best[word] = max(best.get(word, -99.0), float(entry["logprob"]))
        return best

    def yes_no(self, statement: str, text: str) -> float:
        first = self.first_token(SYSTEM_CHECK, f"Text:\n{text}\n\nStatement: {statement}\n\nDoes the text show "
                                               "that the statement is true? Answer yes or no.")
        return first.get("yes", -30.0) - first.get("no", -30.0)

    def pick(self, statement: str, lines: list[str]) -> float:
        numbered = "\n".join(f"{number}. {line}" for number, line in enumerate(lines, 1))
        first = self.first_token(SYSTEM_PICK, f"Lines:\n{numbered}\n\nWhich line shows that {statement}? Answer "
                                              "with the line's number, or 0 if no line shows it.")
        some = max((first.get(str(number), -30.0) for number in range(1, len(lines) + 1)), default=-30.0)
        return some - first.get("0", -30.0)


def scores(probe: Probe, design: str, waits: str, lines: list[str]) -> tuple[float, float | None]:
    """The design's score and, for ``whole``, the score less the empty change's."""
    if design == "whole":
        score = probe.yes_no(waits, "\n".join(lines))
        return score, score - probe.yes_no(waits, NO_CHANGE)
    if design == "lines":
        return max(probe.yes_no(waits, line) for line in lines), None
    return probe.pick(waits, lines), None


def roc_area(positive: Sequence[float], negative: Sequence[float]) -> float | None:
    """The chance that a task to act on scores above a noop one (ties count half); None without both."""
    if not positive or not negative:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / len(positive) / len(negative)


def summary(name: str, rows: list[dict[str, Any]], key: Callable[[dict[str, Any]], float | None]) -> str:
    positive = [value for row in rows if row["expected"] != "noop" and (value := key(row)) is not None]
    negative = [value for row in rows if row["expected"] == "noop" and (value := key(row)) is not None]
    area = roc_area(positive, negative)
    return f"{name} {'-' if area is None else f'{area:.2f}'}"


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    probe = Probe(args.url, args.model)
    try:
        report(probe, args)
    finally:
        probe.close()


def report(probe: Probe, args: argparse.Namespace) -> None:
    for path in args.results:
        asked = [row for row in json.loads(path.read_text(encoding="utf-8")) if row.get("question")]
        for row in asked:
            waits, lines = question_parts(row["question"])
            row["score"], row["calibrated"] = scores(probe, args.design, waits, lines)
        for said, where in ((True, "the change says it"), (False, "nothing in the change says it")):
            rows = [row for row in asked if row["supported"] == said]
            acting = sum(row["expected"] != "noop" for row in rows)
            parts = [summary("ROC area", rows, lambda row: row["score"])]
            if args.design == "whole":
                parts.append(summary("calibrated", rows, lambda row: row["calibrated"]))
            print(f"probe {args.design} {path.name}, where {where}: {len(rows)} tasks ({acting} to act on), "
                  + ", ".join(parts), flush=True)


if __name__ == "__main__":
    main()
