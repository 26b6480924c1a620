"""The judgement bench's figures of a model's own signal: whether its answers tell the tasks to act on from the
rest, apart from what the app reads off the change (``bench.judgement.model_signal`` for the product's narrow
question, ``bench/judgement_probe.py`` for other ways of asking)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.judgement import Outcome, model_signal
from bench.judgement_probe import main, question_parts, roc_area
from bench.judgement_set import ACT, NOOP, Change, Label, Situation

SITUATION = Situation("s", {}, (), Change(), ())


def outcome(expected: str, answer: tuple[bool, float | None] | None, *, supported: bool = False) -> Outcome:
    return Outcome(SITUATION, Label("t", expected, "why"), NOOP, "", 0.0, 1, 0, 0, answer=answer,
                   supported=supported)


def test_a_model_whose_margins_separate_the_classes_has_an_area_of_one() -> None:
    lines = model_signal([outcome(ACT, (True, 2.0)), outcome(ACT, (False, 0.1)), outcome(NOOP, (False, 1.5)),
                          outcome(NOOP, (False, 0.5))])
    assert lines == ["model signal where nothing in the change says it: 4 tasks asked; yes to 1/2 to act on and "
                     "0/2 others; ROC area of its margin 1.00 (0.5: no signal)"]


def test_tasks_the_change_speaks_for_are_counted_apart_and_tasks_never_asked_not_at_all() -> None:
    lines = model_signal([outcome(ACT, (True, 1.0), supported=True), outcome(NOOP, (True, 1.0), supported=True),
                          outcome(NOOP, None)])
    assert lines == ["model signal where the change says it: 2 tasks asked; yes to 1/1 to act on and 1/1 others; "
                     "ROC area of its margin 0.50 (0.5: no signal)"]


def test_without_log_probabilities_only_the_yes_rates_are_given() -> None:
    assert model_signal([outcome(ACT, (True, None)), outcome(NOOP, (False, None))]) == [
        "model signal where nothing in the change says it: 2 tasks asked; yes to 1/1 to act on and 0/1 others"]


QUESTION = ('Task:\n- [1] Tell me when the parcel in tracking.txt is delivered\nIt waits for: the parcel in '
            'tracking.txt is delivered\nThen the assistant will: tell the user (decision "act")\n\nWhat changed:\n'
            '- File tracking.txt, changed lines:\n  {line}\n- New memory: the neighbour is away\n\nDo the changed '
            'lines show that the parcel in tracking.txt is delivered?\n')


def test_the_probe_reads_what_the_task_waits_for_and_each_changed_line_with_its_file() -> None:
    waits, lines = question_parts(QUESTION.format(line="10:14 DELIVERED"))
    assert waits == "the parcel in tracking.txt is delivered"
    assert lines == ["File tracking.txt, changed lines: 10:14 DELIVERED", "New memory: the neighbour is away"]
    assert roc_area([2.0, 0.5], [0.5, -1.0]) == 0.875 and roc_area([1.0], []) is None


def test_the_probe_scores_each_asked_task_by_the_servers_first_token(tmp_path: Path, capsys: Any) -> None:
    """A server on 127.0.0.1 whose yes is likelier when the text says DELIVERED: an area of 1 where it is."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the base class's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = body["messages"][-1]["content"]
            yes = -0.1 if "DELIVERED" in text else -2.0
            top = [{"token": "Yes", "logprob": yes}, {"token": "No", "logprob": -1.0}]
            answer = json.dumps({"choices": [{"logprobs": {"content": [{"token": "Yes", "top_logprobs": top}]}}]})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer.encode())

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    rows = [{"expected": expected, "supported": True, "question": QUESTION.format(line=line)}
            for expected, line in (("act", "10:14 DELIVERED"), ("noop", "07:55 out for delivery"),
                                   ("noop", "08:00 label created"))]
    rows.append({"expected": "noop", "supported": False, "question": ""})  # never asked: not scored
    results = tmp_path / "h.json"
    results.write_text(json.dumps(rows), encoding="utf-8")
    try:
        main(["--url", f"http://127.0.0.1:{server.server_port}/v1", "--design", "whole", str(results)])
    finally:
        server.shutdown()
        server.server_close()
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["probe whole h.json, where the change says it: 3 tasks (1 to act on), ROC area 1.00, "
                     "calibrated 1.00",
                     "probe whole h.json, where nothing in the change says it: 0 tasks (0 to act on), ROC area -, "
                     "calibrated -"]
