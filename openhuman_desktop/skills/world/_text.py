"""HTML as readable text: the article of a page (readability), or all of an HTML mail part (lxml)."""

from __future__ import annotations

import logging
import re

import lxml.html
from lxml import etree

log = logging.getLogger(__name__)

_BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
                     "section", "article", "header", "footer", "table", "ul", "ol", "dd", "dt", "hr"})
_DROPPED = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_SPACES = re.compile(r"[ \t\r\f\v]+")
_LINES = re.compile(r"\n\s*\n+")


def html_to_text(html: str) -> str:
    """The text of an HTML document or fragment, one paragraph per line (scripts and styles left out)."""
    if not html.strip():
        return ""
    try:
        root = lxml.html.fromstring(html)
    except (etree.ParserError, ValueError):
        return ""
    return _text_of(root)


def _text_of(root: lxml.html.HtmlElement) -> str:
    for bad in root.iter(*_DROPPED):
        bad.drop_tree() if bad.getparent() is not None else bad.clear()
    pieces: list[str] = []

    def walk(element: lxml.html.HtmlElement) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        block = tag.lower() in _BLOCKS
        if block:
            pieces.append("\n")
        if element.text and tag:
            pieces.append(element.text)
        for child in element:
            walk(child)
            if child.tail:
                pieces.append(child.tail)
        if block:
            pieces.append("\n")

    walk(root)
    text = "".join(pieces)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _LINES.sub("\n\n", "\n".join(lines)).strip()


def readable(html: str, url: str) -> tuple[str, str]:
    """(title, text) of a page's main article; the whole page's text when no article stands out."""
    from readability import Document  # imported on first use: a worker thread pays for it, not start-up

    title = ""
    try:
        document = Document(html, url=url)
        title = " ".join((document.short_title() or "").split())
        summary = document.summary(html_partial=True)
        text = html_to_text(summary)
    except Exception as exc:  # readability gives up on odd pages: fall back to the whole text
        log.info("readability could not read %s (%s); using the page's whole text", url, type(exc).__name__)
        text = ""
    if len(text) < 200:
        whole = html_to_text(html)
        if len(whole) > len(text):
            text = whole
    if not title:
        try:
            found = lxml.html.fromstring(html).findtext(".//title")
            title = " ".join((found or "").split())
        except (etree.ParserError, ValueError):
            title = ""
    return title, text
