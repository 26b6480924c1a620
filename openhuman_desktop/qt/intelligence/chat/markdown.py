"""Markdown of the assistant's answers as a QTextDocument: never HTML, never a file or image loaded."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPalette,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from openhuman_desktop.qt.intelligence.theme import blend, is_dark

# GitHub's dialect (tables, strike-through, task lists, autolinks) with raw HTML shown as the text it is:
# model output never becomes markup.
FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML
IMAGE_TEXT = "[image: {}]"
HEADING_SCALE = {1: 1.45, 2: 1.27, 3: 1.12}   # modest: an answer is not a web page


class AnswerDocument(QTextDocument):
    """A document that loads no resources: an image in an answer (``![x](file:///…)``) is never read."""

    def loadResource(self, kind: int, name: QUrl | str) -> Any:  # noqa: N802 (Qt override)
        return None


def code_fill(palette: QPalette) -> QColor:
    """The tint behind code: a little darker than the bubble on light themes, a little lighter on dark."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    return blend(base, text, 0.10 if is_dark(palette) else 0.07)


def _fragments(block: QTextBlock) -> list[tuple[int, int, QTextCharFormat]]:
    """The block's fragments as (position, length, format), read before any of them is changed."""
    found = []
    iterator = block.begin()
    while not iterator.atEnd():
        fragment = iterator.fragment()
        if fragment.isValid():
            found.append((fragment.position(), fragment.length(), fragment.charFormat()))
        iterator += 1
    return found


def has_wide_blocks(document: QTextDocument) -> bool:
    """Whether the document has code blocks or tables, whose tint should span the whole bubble."""
    block = document.begin()
    while block.isValid():
        block_format = block.blockFormat()
        if block_format.hasProperty(QTextFormat.Property.BlockCodeFence) or block_format.nonBreakableLines():
            return True
        block = block.next()
    return bool(document.rootFrame().childFrames())


def render(text: str, font: QFont, palette: QPalette, *, markdown: bool = True) -> QTextDocument:
    """``text`` (Markdown when ``markdown``, else plain) as a document in ``font``, code tinted for ``palette``."""
    document = AnswerDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)
    document.setUndoRedoEnabled(False)
    if not markdown:
        document.setPlainText(text)
        return document
    document.setMarkdown(text, FEATURES)
    document.setIndentWidth(max(16.0, QFontMetricsF(font).height() * 1.4))
    _polish(document, font, palette)
    return document


def _polish(document: QTextDocument, font: QFont, palette: QPalette) -> None:
    """Tint code blocks and inline code, swap images for their alt text, keep headings modest."""
    fill = code_fill(palette)
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if font.pointSizeF() > 0:
        mono.setPointSizeF(font.pointSizeF() * 0.95)
    images: list[tuple[int, int, str]] = []
    block = document.begin()
    while block.isValid():
        block_format = block.blockFormat()
        is_code = block_format.hasProperty(QTextFormat.Property.BlockCodeFence) or block_format.nonBreakableLines()
        if is_code:
            cursor = QTextCursor(block)
            tinted = QTextBlockFormat()
            tinted.setBackground(fill)
            tinted.setLeftMargin(6)
            tinted.setRightMargin(6)
            cursor.mergeBlockFormat(tinted)
            select = QTextCursor(block)
            select.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            code = QTextCharFormat()
            code.setFont(mono)
            select.mergeCharFormat(code)
        level = block_format.headingLevel()
        size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        if level:
            # The importer sizes headings by an adjustment (h1 is "xx-large"): replaced by a modest size,
            # fragment by fragment so inline code in a heading stays monospace.
            for position, length, heading in _fragments(block):
                heading.clearProperty(QTextFormat.Property.FontSizeAdjustment)
                heading.setFontPointSize(size * HEADING_SCALE.get(level, 1.0))
                heading.setFontWeight(QFont.Weight.DemiBold)
                if heading.fontFixedPitch():
                    heading.setBackground(fill)
                select = QTextCursor(document)
                select.setPosition(position)
                select.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
                select.setCharFormat(heading)
            spaced = QTextBlockFormat()
            spaced.setTopMargin(size * 1.1)
            spaced.setBottomMargin(size * 0.3)
            QTextCursor(block).mergeBlockFormat(spaced)
        elif block.textList() is not None:
            tight = QTextBlockFormat()   # list items closer together than paragraphs
            tight.setTopMargin(1.5)
            tight.setBottomMargin(1.5)
            QTextCursor(block).mergeBlockFormat(tight)
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            if fragment.isValid():
                char_format = fragment.charFormat()
                if char_format.isImageFormat():
                    name = char_format.toImageFormat().name()
                    images.append((fragment.position(), fragment.length(), name.rsplit("/", 1)[-1] or "image"))
                elif not is_code and not level and char_format.fontFixedPitch():
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    inline = QTextCharFormat()
                    inline.setBackground(fill)
                    inline.setFont(mono)
                    cursor.mergeCharFormat(inline)
            iterator += 1
        block = block.next()
    for position, length, name in reversed(images):
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(IMAGE_TEXT.format(name), QTextCharFormat())
