"""Plain arithmetic the app works out itself (issue 24: Qwen2.5-0.5B said 17 × 23 is 401): exact, safe, and only
when the message is nothing but the sum."""

from __future__ import annotations

from fractions import Fraction

import pytest

from openhuman_desktop.orchestration.arithmetic import NotPlain, answer_text, evaluate, plain_sum
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript


@pytest.mark.parametrize(("message", "answer"), [
    ("What is 17 × 23?", "17 × 23 = 391."),
    ("What is 17 times 23?", "17 × 23 = 391."),
    ("what's 17*23", "17 × 23 = 391."),
    ("17 x 23", "17 × 23 = 391."),
    ("Calculate (4 + 5) / 3", "(4 + 5) ÷ 3 = 3."),
    ("How much is 2^10?", "2 ^ 10 = 1024."),
    ("What is 2 to the power of 10?", "2 ^ 10 = 1024."),
    ("What is 0.1 + 0.2?", "0.1 + 0.2 = 0.3."),       # exact fractions, not floating point
    ("What is 1/3?", "1 ÷ 3 ≈ 0.3333333333."),
    ("What is 1,000 * 3?", "1000 × 3 = 3000."),
    ("Can you compute 7.5 × 4 please?", "7.5 × 4 = 30."),
    ("What is 12 divided by 4?", "12 ÷ 4 = 3."),
    ("What is 100 minus 58 plus 3?", "100 − 58 + 3 = 45."),
])
def test_a_plain_arithmetic_question_is_worked_out_exactly(message: str, answer: str) -> None:
    found = plain_sum(message)
    assert found is not None and answer_text(found) == answer


@pytest.mark.parametrize("message", [
    "What is the plumber's phone number in notes.md?",
    "What is 17 times 23 and who is Anna?",      # more than the sum: the model's
    "What is 17?",                                # no operator
    "2026-12-02",                                 # a date, not 2012
    "Call me at 0151 2345 678",
    "What is 5 / 0?",                             # no answer rather than a wrong one
    "What is 9**9**9?",                           # a power too large to work out
    "I run 3 times a week",
    '__import__("os").system("ls")',
    "What is (1).__class__?",
    "",
])
def test_anything_else_is_left_to_the_model(message: str) -> None:
    assert plain_sum(message) is None


@pytest.mark.parametrize("expression", [
    "__import__('os')", "a + 1", "len('x')", "(1).real", "[1, 2][0]", "1 if 1 else 2", "2 ** 1000", "10 ** 41",
    "1" * 200, "1 < 2", "lambda: 1", "1j * 2",
])
def test_only_numbers_operators_and_brackets_are_ever_evaluated(expression: str) -> None:
    with pytest.raises(NotPlain):
        evaluate(expression)
    assert evaluate("-(3 - 5) * 2 ** 3 / 4") == Fraction(4)


async def test_a_chat_that_is_a_sum_is_answered_by_the_app_without_a_model(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(instructions="17 times 23 is 401.", subtasks=[("any", "")],
                                       steps={}, reply="401")
    outcome = await harness.run("What is 17 × 23?")
    assert outcome.values["channel_response"] == "17 × 23 = 391."
    assert outcome.streamed == "17 × 23 = 391."
    assert harness.model.kinds() == [], "no front desk, planner, sub-agent, pass 2 or compression call"
    assert kinds.PLAN not in harness.model.kinds()
