"""Qt side of the app (the only package that may import PySide6 or qasync)."""

__all__: list[str] = []  # the app starts from qt.app.main; the windows are its subpackages' faces
