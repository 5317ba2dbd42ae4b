"""The one exception the offline model raises to answer with an API error."""


class APIError(Exception):
    """An error the offline model answers with, as the API would (status and message)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message
