"""Plain arithmetic the app works out itself: "What is 17 × 23?" is 391, not what a small model guesses.

Qwen2.5-0.5B answered "401". Sums are not judgement: a model of any size adds nothing a parser cannot, and
a calculator tool for a sub-agent would add a plan, a tool call and two model requests to get there. A message
that is *only* an arithmetic question ("what is 17 times 23?", "calculate (4 + 5) / 3", "2^10 =") is answered
by the app, exactly; anything with more words than that is the model's, as before.

Safe by construction: the expression is parsed with :mod:`ast` (``mode="eval"``) and only numbers, ``+ - × ÷``,
powers and brackets are walked — no names, calls, attributes or subscripts ever reach an evaluator; the text
is short, powers are bounded and results too large to be useful are refused. Numbers are exact fractions, so
``0.1 + 0.2`` is ``0.3``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MAX_EXPRESSION_CHARS", "NotPlain", "Sum", "answer_text", "evaluate", "number_text", "plain_sum"]

MAX_EXPRESSION_CHARS = 120
MAX_EXPONENT = 64
MAX_DIGITS = 40
"""A result with more digits than this (or a power with a larger exponent) is not worked out."""

_LEAD = re.compile(
    r"^\s*(?:(?:hi|hey|ok|okay|so|and|please|pls|quick question)[,:!]?\s+)*"
    r"(?:(?:can|could) you\s+(?:please\s+)?(?:tell me\s+)?|tell me\s+|do you know\s+)?"
    r"(?:what(?:'s| is| are| does| do)|how much (?:is|are|does|do)|calculate|compute|work out|solve|evaluate)?"
    r"\s*", re.I)
_TAIL = re.compile(r"\s*(?:make|come to|equal to|equal|equals|give|is|=)?\s*(?:please)?\s*[?!.]*\s*$", re.I)
_WORDS = (
    (re.compile(r"\bmultiplied\s+by\b", re.I), "*"),
    (re.compile(r"\btimes\b", re.I), "*"),
    (re.compile(r"\bdivided\s+by\b", re.I), "/"),
    (re.compile(r"\bover\b", re.I), "/"),
    (re.compile(r"\bplus\b", re.I), "+"),
    (re.compile(r"\bminus\b", re.I), "-"),
    (re.compile(r"\bto\s+the\s+power\s+of\b", re.I), "**"),
    (re.compile(r"(?<=[\d)\s])[xX](?=[\s(]*[\d(])"), "*"),
)
_SYMBOLS = str.maketrans({"×": "*", "·": "*", "∙": "*", "⋅": "*", "÷": "/", "−": "-", "–": "-", "^": "^",
                          "\u00a0": " "})
_THOUSANDS = re.compile(r"\b\d{1,3}(?:,\d{3})+(?!\d)")
_ALLOWED = re.compile(r"^[\d\s.+\-*/()]+$")
_OPERATORS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "÷", ast.Pow: "^"}


@dataclass(frozen=True)
class Sum:
    """An arithmetic question the app worked out: the expression as shown and its exact value."""

    shown: str
    value: Fraction


class NotPlain(ValueError):
    """Not a plain arithmetic expression the app works out (a name, a call, a zero divisor, too large …)."""


def evaluate(expression: str) -> Fraction:
    """The exact value of ``expression`` (numbers, ``+ - * / ** ^`` and brackets only).

    Raises:
        NotPlain: anything else, a division by zero, or a result too large to be useful.
    """
    if len(expression) > MAX_EXPRESSION_CHARS or not _ALLOWED.match(expression.replace("^", "**")):
        raise NotPlain("not a plain arithmetic expression")
    try:
        tree = ast.parse(expression.replace("^", "**").strip(), mode="eval")
    except SyntaxError as exc:
        raise NotPlain("not a plain arithmetic expression") from exc
    return _value(tree.body)


def _value(node: ast.expr) -> Fraction:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return Fraction(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _value(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Add):
            result = left + right
        elif isinstance(node.op, ast.Sub):
            result = left - right
        elif isinstance(node.op, ast.Mult):
            result = left * right
        elif isinstance(node.op, ast.Div):
            if right == 0:
                raise NotPlain("a division by zero")
            result = left / right
        else:
            result = _power(left, right)
        if max(len(str(abs(result.numerator))), len(str(result.denominator))) > MAX_DIGITS:
            raise NotPlain("a result too large to be useful")
        return result
    raise NotPlain("not a plain arithmetic expression")


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator != 1 or abs(exponent.numerator) > MAX_EXPONENT:
        raise NotPlain("a power the app does not work out")
    if base == 0 and exponent < 0:
        raise NotPlain("a division by zero")
    return base ** exponent.numerator


def _shown(node: ast.expr) -> str:
    """The expression as the answer shows it: ``17 × 23``, ``(4 + 5) ÷ 3``."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.UnaryOp):
        return ("-" if isinstance(node.op, ast.USub) else "+") + _shown(node.operand)
    if isinstance(node, ast.BinOp):
        def side(child: ast.expr) -> str:
            text = _shown(child)
            return f"({text})" if isinstance(child, ast.BinOp) and _rank(child) < _rank(node) else text
        return f"{side(node.left)} {_OPERATORS[type(node.op)]} {side(node.right)}"
    return ast.unparse(node)


def _rank(node: ast.BinOp) -> int:
    return 1 if isinstance(node.op, ast.Add | ast.Sub) else 3 if isinstance(node.op, ast.Pow) else 2


def plain_sum(message: str) -> Sum | None:
    """The arithmetic question ``message`` is, when it is nothing else ("What is 17 × 23?", "17 times 23",
    "calculate (4 + 5) / 3", "how much is 2^10?"), worked out; None for anything else — a sentence with more
    words, a single number, a date like 2026-12-02, a division by zero."""
    text = " ".join(message.split())
    if not text or len(text) > MAX_EXPRESSION_CHARS * 2 or not any(c.isdigit() for c in text):
        return None
    body = _TAIL.sub("", _LEAD.sub("", text, count=1), count=1)
    body = body.translate(_SYMBOLS)
    body = _THOUSANDS.sub(lambda match: match.group().replace(",", ""), body)
    for pattern, operator in _WORDS:
        body = pattern.sub(f" {operator} ", body)
    body = body.strip()
    if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", body) or not re.search(r"\d\s*[-+*/^]|[)]\s*[-+*/^]", body):
        return None   # a date, or no operator between numbers: not a sum
    try:
        tree = ast.parse(body.replace("^", "**"), mode="eval") if _ALLOWED.match(body.replace("^", "**")) else None
        if tree is None:
            return None
        value = evaluate(body)
    except (NotPlain, SyntaxError):
        return None
    return Sum(_shown(tree.body), value)


def number_text(value: Fraction) -> tuple[str, bool]:
    """``("391", True)``, ``("3.5", True)``, ``("0.3333333333", False)``: the value with ten decimals at most,
    and whether that is exact."""
    if value.denominator == 1:
        return str(value.numerator), True
    text = f"{float(value):.10f}".rstrip("0").rstrip(".")
    return text, Fraction(text) == value


def answer_text(found: Sum) -> str:
    """The chat's answer to a plain arithmetic question: ``17 × 23 = 391.``, ``1 ÷ 3 ≈ 0.3333333333.``"""
    number, exact = number_text(found.value)
    return f"{found.shown} {'=' if exact else '≈'} {number}."
