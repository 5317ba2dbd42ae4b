"""An HTTP transport for the anthropic SDK that answers from the offline course model.

The SDK builds and sends real HTTP requests; this transport hands them to
`CourseModel.handle` instead of the network. Nothing leaves the machine.
"""

from __future__ import annotations

try:  # anthropic >= 2.14 ships on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from .server import CourseModel


class OfflineTransport(httpx.BaseTransport):
    """Route every request of an SDK client to a `CourseModel`, in process."""

    def __init__(self, model: CourseModel):
        self.model = model

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        headers = {k.lower(): v for k, v in request.headers.items()}
        status, out_headers, out_body = self.model.handle(
            request.method, request.url.path, headers, body)
        return httpx.Response(status, headers=out_headers, content=out_body, request=request)


def http_client(model: CourseModel) -> httpx.Client:
    """An httpx client whose only destination is the offline model."""
    return httpx.Client(transport=OfflineTransport(model), base_url="http://offline.invalid")
