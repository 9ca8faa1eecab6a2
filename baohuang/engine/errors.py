"""Errors the engine raises when an action breaks the rules."""


class IllegalAction(ValueError):
    """An action the rules forbid, with a stable snake_case ``code`` for clients.

    ``str(err)`` is the readable ``message``; the code never changes wording, so
    clients and tests match on it (``not_in_hand``, ``illegal_set``, ``does_not_beat`` …).
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        # Rebuild with both arguments, so the error survives pickling (Celery, processes).
        return (type(self), (self.code, self.message))

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
