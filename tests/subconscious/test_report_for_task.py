"""``Report.for_task``: the report for a prompt about one task leaves out the list of due tasks (issue 9, item 10)."""

from __future__ import annotations

import pytest

from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.subconscious.decisions import Report
from openhuman_desktop.subconscious.report import Section, SituationReporter

TOKENS = TokenCounter()


def sections(files: str) -> list[Section]:
    return [Section("Environment", "Workspace: /home/anna/ws"),
            Section("Tasks", "Last looked at never:\n- Wire 5000 EUR to DE99 (may change things)"),
            Section("New memories", "- Anna prefers short summaries."),
            Section("Changed workspace files", files),
            Section("Model health", "- local model: ok")]


def test_a_whole_report_for_one_task_has_every_section_but_the_tasks() -> None:
    report = SituationReporter([], TOKENS, lambda: 10_000).assemble(sections("- notes.md (5 bytes): hello"))
    text = report.for_task()
    assert "Wire 5000 EUR" in report.text and "Wire 5000 EUR" not in text
    for part in ("## Environment", "Anna prefers short summaries.", "- notes.md (5 bytes): hello", "## Model health"):
        assert part in text


@pytest.mark.parametrize("budget", [200, 400])
def test_a_cut_report_for_one_task_keeps_the_cut_and_the_note(budget: int) -> None:
    files = "\n".join(f"- file{i}.md (10 bytes): some words here" for i in range(400))
    report = SituationReporter([], TOKENS, lambda: budget).assemble(sections(files))
    text = report.for_task()
    assert "Wire 5000 EUR" not in text
    assert "cut to fit the report budget" in text and "Left out" in text
    assert text in report.text.replace(
        report.text[report.text.index("## Tasks"):report.text.index("## New memories")], ""
    )


def test_a_report_built_without_its_parts_falls_back_to_its_text() -> None:
    assert Report(text="## Environment\nx\n", signature="s", tokens=3).for_task() == "## Environment\nx\n"
