"""HTTP transports for the anthropic SDK that answer from the offline course model.

The SDK builds and sends real HTTP requests; these transports hand them to
`CourseModel.handle` instead of the network, for `anthropic.Anthropic` (sync) and
`anthropic.AsyncAnthropic` (async). Nothing leaves the machine.
"""

from __future__ import annotations

try:  # anthropic >= 2.14 ships on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

from standin.server import CourseModel

BASE_URL = "http://offline.invalid"


def _answer(model: CourseModel, request: httpx.Request, body: bytes) -> httpx.Response:
    headers = {k.lower(): v for k, v in request.headers.items()}
    status, out_headers, out_body = model.handle(request.method, request.url.raw_path.decode(),
                                                 headers, body)  # the path with its query
    return httpx.Response(status, headers=out_headers, content=out_body, request=request)


class OfflineTransport(httpx.BaseTransport):
    """Route every request of a sync SDK client to a `CourseModel`, in process."""

    def __init__(self, model: CourseModel):
        self.model = model

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return _answer(self.model, request, request.read())


class AsyncOfflineTransport(httpx.AsyncBaseTransport):
    """The same for an async client: the model answers at once (it does no I/O)."""

    def __init__(self, model: CourseModel):
        self.model = model

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return _answer(self.model, request, await request.aread())


def http_client(model: CourseModel) -> httpx.Client:
    """An httpx client whose only destination is the offline model."""
    return httpx.Client(transport=OfflineTransport(model), base_url=BASE_URL)


def async_http_client(model: CourseModel) -> httpx.AsyncClient:
    """An async httpx client whose only destination is the offline model."""
    return httpx.AsyncClient(transport=AsyncOfflineTransport(model), base_url=BASE_URL)
