"""The error every service raises: a stable code for programs, a message for players.

Shared by the apps (`rooms`, `scoring`), which both raise it, so it lives in the project
package and imports nothing: `rooms` calls `scoring`, and `scoring` imports nothing of
`rooms` (docs/architecture.md, "Layering")."""


class ServiceError(Exception):
    """A refused write. Nothing was changed.

    `code` is stable snake_case (clients switch on it: `stale_version`, `not_seated`,
    `room_full`, `seat_taken`, `not_your_turn`, `hand_running`, `no_hand`,
    `trustee_locked`, … and the engine's IllegalAction codes passed through unchanged);
    `message` is an English sentence for logs, programs and the admin; `params` are what
    a client needs to word the refusal in its player's language (cards as notation lists,
    counts, seat numbers — docs/protocol.md, "Error codes").
    """

    def __init__(self, code: str, message: str, params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"
