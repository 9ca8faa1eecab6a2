"""The error every service raises: a stable code for programs, a message for players."""


class ServiceError(Exception):
    """A refused write. Nothing was changed.

    `code` is stable snake_case (clients switch on it: `stale_version`, `not_seated`,
    `room_full`, `seat_taken`, `not_your_turn`, `hand_running`, `no_hand`,
    `trustee_locked`, … and the engine's IllegalAction codes passed through unchanged);
    `message` is a sentence a player can read.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"
