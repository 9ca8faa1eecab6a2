"""Errors the engine raises when an action breaks the rules."""


class IllegalAction(ValueError):
    """An action the rules forbid, with a stable snake_case ``code`` for clients.

    ``str(err)`` is the readable ``message`` (English, for logs and programmers); the code
    never changes wording, so clients and tests match on it (``not_in_hand``,
    ``illegal_set``, ``does_not_beat`` …). ``params`` are what a client needs to word the
    refusal itself in its player's language: cards as notation lists, counts, seat
    numbers (docs/protocol.md, "Error codes").
    """

    def __init__(self, code: str, message: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        # Rebuild with both arguments, so the error survives pickling (Celery, processes).
        return (type(self), (self.code, self.message, self.params))

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
