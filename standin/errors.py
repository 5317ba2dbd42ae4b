"""The one exception the offline model raises to answer with an API error."""


class APIError(Exception):
    """An error the offline model answers with, as the API would: status, message and,
    for errors the SDK dispatches on, `details` (e.g. {"error_code": "..."})."""

    def __init__(self, status: int, message: str, details: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.details = details


def extra(field: str) -> APIError:
    """The API's answer to a body field it does not take (or a beta field sent without its
    beta): `<field>: Extra inputs are not permitted`."""
    return APIError(400, f"{field}: Extra inputs are not permitted")


def unsupported(field: str, what: str = "") -> APIError:
    """A parameter the API takes but the offline course model does not emulate: refused,
    never silently ignored. (Course wording; the API itself would accept it.)"""
    return APIError(400, f"{field}: {what or 'this parameter'} is not supported by the offline "
                    "course model. "
                    "It emulates only what the course uses (see docs/api-facts.md); set "
                    "ANTHROPIC_API_KEY to use it with Claude.")
