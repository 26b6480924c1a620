"""The chat agent at small sizes: plans and instructions the words of a request settle without a model.

A half-billion-parameter planner, given "What is in notes.md?", often answers ``{"subtasks": []}`` and no tool
runs; its front desk, asked to turn the message into instructions, answers the question itself and invents the
facts (a phone number). The structure carries what the model cannot:

- a **single-file question** ("what does notes.md say about the tap?") or a **single edit** ("append 'buy milk'
  to todo.md") is one sub-agent with the file tools and the user's own words, planned without a model
  (:func:`direct_plan`);
- a plan with no sub-task for a message about the user's files is asked for once more (:func:`needs_tools`);
- the front desk's instructions must keep to the user's message (:func:`keeps_to`): instructions that add a
  number or a file the user did not give, or drop a file they named, are replaced by the message itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from openhuman_desktop.orchestration.arithmetic import plain_sum
from openhuman_desktop.skills.base import Tool

READ_TOOL = "files_read"
LIST_TOOL = "files_list"
APPEND_TOOL = "files_append"
WRITE_TOOL = "files_write"

_PATH = re.compile(r"(?<![\w/.@-])((?:[\w-]+/)*[\w-]+\.(?:md|txt|csv|json|toml|yaml|yml|log|ics|ini|html|py|rst|org))"
                   r"(?![\w/])", re.I)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_QUESTION_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:what|which|who|when|where|how|does|do|did|is|are|was|were|has|have|can you tell|"
    r"tell me|show me|read|summari[sz]e|list|give me|find)\b", re.I)
_EDIT_LEAD = re.compile(r"^\s*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?P<verb>append|add|put|note|jot|"
                        r"insert|record)\b", re.I)
_WORKSPACE_WORDS = re.compile(r"\b(?:files?|folders?|workspace|documents?|notes|todo|to-do|list|plan|journal|"
                              r"diary|my\s+\w+\s+(?:file|note|notes|plan|list))\b", re.I)
_LISTING = re.compile(r"\b(?:what|which)\s+files\b|\bfiles\s+(?:are|do i have)\b|\blist\s+(?:my\s+)?files\b", re.I)

READ_TITLE = "Read {path} and answer"
EDIT_TITLE = "{verb} to {path}"
LIST_TITLE = "List the workspace"
READ_STEPS = ("Call files_read with path \"{path}\". Then answer the user's message below from what the file says, "
              "quoting the lines that matter; if the file does not say, answer that it does not.\n"
              "The user's message: {text}")
EDIT_STEPS = ("Call {tool} once with path \"{path}\" and exactly the text the user asked for (one line, ending "
              "with a newline), then say what you added.\nThe user's message: {text}")
READ_ANSWER = ("Lines of the file {path}:\n\"\"\"\n{content}\n\"\"\"\nQuestion: {text}\nAnswer the question in one "
               "short sentence with the words of these lines.")
"""A single-file question whose file the app read itself: the model only answers from the lines shown (the ones
that share words with the question, :func:`relevant_lines`)."""
_WORD = re.compile(r"[a-z0-9]+")
_QUESTION_WORDS_TEXT = """
    a an the and or of in on at to for from by with what which who whom whose when where why how is are was were be
    do does did my me i you your it its this that these those there should would could can will say says said
    according file tell please
"""
_QUESTION_WORDS = frozenset(_QUESTION_WORDS_TEXT.split())
MAX_SHOWN_CHARS = 6000
"""A file read for a question is shown up to this many characters (its relevant lines first)."""


def _stems(text: str) -> set[str]:
    words = (word for word in _WORD.findall(text.lower()) if word not in _QUESTION_WORDS and len(word) > 2)
    return {word[:5] for word in words}  # "leave" meets "leaving", "planted" meets "plant"


def relevant_lines(content: str, question: str, path: str) -> str:
    """The lines of a file that share a word with the question (in the file's order), or the whole file when
    none does: a 0.5B model shown "Call the plumber on Tuesday" and "The garden needs water on Sunday" answered
    "Sunday" for the day to call the plumber. Words of the file's own path do not count."""
    lines = [line for line in content.splitlines() if line.strip()]
    wanted = _stems(question) - _stems(path.replace("/", " ").replace(".", " "))
    chosen = [line for line in lines if wanted & _stems(line)] or lines
    return "\n".join(chosen)[:MAX_SHOWN_CHARS]
LIST_STEPS = "Call files_list with path \"\" and answer with the names it lists.\nThe user's message: {text}"


@dataclass(frozen=True)
class DirectPlan:
    """One sub-task the request's words settle: its title and self-contained instructions."""

    title: str
    instructions: str
    tools: tuple[str, ...]
    """The one tool the sub-agent is offered."""


_QUOTED = re.compile(r"""(?:^|[\s(:])(?:'([^\n]{1,500}?)'|"([^"\n]{1,500})"|‘([^’\n]{1,500})’|"""
                     r"""“([^”\n]{1,500})”)(?=[\s.,;:!?)]|$)""")


@dataclass(frozen=True)
class AppendDone:
    """One append as the tool carried it out (or did not): what the chat's reply is written from."""

    path: str
    text: str
    ok: bool
    uncertain: bool = False
    problem: str = ""


def _shown(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) == 1:
        return f"\"{lines[0]}\""
    return f"{len(lines)} lines (\"{lines[0]}\" …)" if lines else "an empty line"


def appended_reply(done: Sequence[AppendDone], path: str) -> str:
    """The chat's reply to a single edit, written by the app from what the tool did, never from the model's
    words: Qwen2.5-0.5B, asked to say that "buy milk" was added, wrote "Sub-task: Append to todo.md Th…".

    Args:
        done: the appends that ran, in order (none: nothing was added).
        path: the file the user named.
    """
    if not done:
        return f"Nothing was added to {path}."
    sentences: list[str] = []
    counted: dict[tuple[str, str], int] = {}
    for append in done:
        if append.ok:
            counted[(append.path, append.text)] = counted.get((append.path, append.text), 0) + 1
    for (where, text), times in counted.items():
        sentences.append(f"Added {_shown(text)} to {where}{'' if times == 1 else f' {times} times'}.")
    for append in done:
        problem = f": {append.problem.strip().rstrip('.')}." if append.problem.strip() else "."
        if append.uncertain:
            sentences.append(f"Adding {_shown(append.text)} to {append.path} may or may not have "
                             f"happened{problem}")
        elif not append.ok:
            sentences.append(f"{_shown(append.text)} was not added to {append.path}{problem}")
    return " ".join(sentences)


def quoted_line(text: str) -> str | None:
    """The one quoted text of a request ("Append the line 'buy milk' to todo.md" → ``buy milk``), or None when
    there is none or more than one (then the model writes the call)."""
    found = [next(group for group in match.groups() if group is not None) for match in _QUOTED.finditer(text)]
    found = [line.strip() for line in found if line.strip() and not _PATH.fullmatch(line.strip())]
    return found[0] if len(found) == 1 else None


def paths_in(text: str) -> list[str]:
    """The workspace file names a message gives (``notes.md``, ``projects/garden.md``), in order, once each."""
    return list(dict.fromkeys(match.group(1) for match in _PATH.finditer(text)))


def direct_kind(text: str) -> str | None:
    """``edit`` (a single edit of one named file), ``read`` (a question about one named file), ``list`` (what
    files there are), ``sum`` (a plain arithmetic question: the app works it out, :mod:`arithmetic`) or None:
    what the words alone say the request is."""
    message = " ".join(text.split())
    paths = paths_in(message)
    if len(paths) > 1 or len(message) > 400:
        return None
    if not paths and plain_sum(message) is not None:
        return "sum"
    if len(paths) == 1 and _EDIT_LEAD.match(message):
        return "edit"
    if len(paths) == 1 and (_QUESTION_LEAD.match(message) or message.endswith("?")):
        return "read"
    if not paths and _LISTING.search(message):
        return "list"
    return None


def direct_plan(text: str, tools: Sequence[Tool]) -> DirectPlan | None:
    """The plan of a single-file question, a single edit or a listing of the workspace; None for anything else.

    Only with the tool it needs on offer: a read run is never given an edit, whatever its words.
    """
    offered = {tool.name for tool in tools}
    message = " ".join(text.split())
    kind = direct_kind(message)
    paths = paths_in(message)
    if kind == "edit" and APPEND_TOOL in offered:
        edit = _EDIT_LEAD.match(message)
        verb = edit.group("verb").capitalize() if edit else "Add"
        return DirectPlan(EDIT_TITLE.format(verb=verb, path=paths[0]),
                          EDIT_STEPS.format(tool=APPEND_TOOL, path=paths[0], text=message), (APPEND_TOOL,))
    if kind == "read" and READ_TOOL in offered:
        return DirectPlan(READ_TITLE.format(path=paths[0]), READ_STEPS.format(path=paths[0], text=message),
                          (READ_TOOL,))
    if kind == "list" and LIST_TOOL in offered:
        return DirectPlan(LIST_TITLE, LIST_STEPS.format(text=message), (LIST_TOOL,))
    return None


def needs_tools(text: str, tools: Sequence[Tool]) -> bool:
    """Whether a message is about the user's files, so that a plan without a sub-task cannot answer it."""
    if not any(tool.name in (READ_TOOL, LIST_TOOL) for tool in tools):
        return False
    return bool(paths_in(text)) or bool(_WORKSPACE_WORDS.search(text))


def keeps_to(message: str, instructions: str) -> bool:
    """Whether the front desk's instructions keep to the user's message: every file the user named is in them,
    and they bring no number and no file of their own (an answer invented before any tool ran does)."""
    given_numbers = set(_NUMBER.findall(message))
    if any(number not in given_numbers for number in _NUMBER.findall(instructions)):
        return False
    given_paths = {path.lower() for path in paths_in(message)}
    written = {path.lower() for path in paths_in(instructions)}
    return given_paths <= written and written <= given_paths
