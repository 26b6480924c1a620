"""Qt side of the app (the only package that may import PySide6 or qasync)."""
