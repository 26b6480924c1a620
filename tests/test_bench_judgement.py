"""The judgement bench's figure of the model's own signal (``bench.judgement.model_signal``): whether a model's
answers to the narrow question tell the tasks to act on from the rest, apart from what the app reads off the
change."""

from __future__ import annotations

from bench.judgement import Outcome, model_signal
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
