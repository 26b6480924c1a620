"""Where the app's windows appear: whole, on one screen's free area (a small screen, several screens, a screen
that was unplugged since), and in front."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QCursor, QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

NO_WINDOW_MANAGER = ("offscreen", "minimal")
PLACED = "openhuman_placed"   # a window property: set once the window has been put on a screen


def _area(rect: QRect) -> int:
    return max(0, rect.width()) * max(0, rect.height())


def screen_for(window: QWidget, cursor: QPoint | None = None) -> QScreen | None:
    """The screen ``window`` opens on: the one that shows most of where it was, else the one under the pointer
    (where the tray icon was just clicked), else the primary one."""
    screens = QGuiApplication.screens()
    if not screens:
        return None
    if window.property(PLACED):
        frame = window.frameGeometry()
        best = max(screens, key=lambda screen: _area(screen.availableGeometry().intersected(frame)))
        if _area(best.availableGeometry().intersected(frame)) > 0:
            return best
    point = QCursor.pos() if cursor is None else cursor
    return QGuiApplication.screenAt(point) or QGuiApplication.primaryScreen()


def frame_room(window: QWidget) -> QSize:
    """What the window manager's frame adds to the window's size (a guess before it was first shown)."""
    frame, inner = window.frameGeometry(), window.geometry()
    if frame != inner:
        return QSize(frame.width() - inner.width(), frame.height() - inner.height())
    line = window.fontMetrics().height()
    return QSize(8, line * 2 + 8)   # borders, and a title bar of about two lines


def fit_on_screen(window: QWidget, cursor: QPoint | None = None) -> None:
    """Put a top-level window, frame included, inside the free area of a screen (``screen_for``).

    It shrinks to the area when it is larger (its minimum size too, on a small screen), keeps its place when
    it is already inside, is moved in when it sticks out, and is centred when it opens for the first time.
    A maximised or full-screen window is the window manager's.
    """
    if window.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
        return
    screen = screen_for(window, cursor)
    if screen is None:
        return
    area = screen.availableGeometry()
    room = frame_room(window)
    was_placed = bool(window.property(PLACED))
    old_frame = window.frameGeometry()
    most = QSize(max(1, area.width() - room.width()), max(1, area.height() - room.height()))
    if window.minimumWidth() > most.width():
        window.setMinimumWidth(most.width())
    if window.minimumHeight() > most.height():
        window.setMinimumHeight(most.height())
    size = window.size().boundedTo(most)
    if size != window.size():
        window.resize(size)
    width, height = size.width() + room.width(), size.height() + room.height()
    if was_placed:
        x = min(max(old_frame.x(), area.left()), area.left() + area.width() - width)
        y = min(max(old_frame.y(), area.top()), area.top() + area.height() - height)
    else:
        x = area.left() + (area.width() - width) // 2
        y = area.top() + (area.height() - height) // 2
    if not was_placed or QPoint(x, y) != old_frame.topLeft():
        window.move(x, y)   # a window's position is its frame's
    window.setProperty(PLACED, True)


def bring_to_front(window: QWidget, cursor: QPoint | None = None) -> None:
    """Show ``window`` whole on a screen (``fit_on_screen``), restored if minimised, raised and focused."""
    window.setWindowState((window.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive)
    fit_on_screen(window, cursor)
    window.show()
    if QGuiApplication.platformName() not in NO_WINDOW_MANAGER:   # offscreen warns "does not support raise()"
        window.raise_()
        window.activateWindow()
