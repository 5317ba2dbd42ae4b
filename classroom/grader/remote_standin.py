"""`standin` as the class grader's sandbox has it: a door to the grader's course model.

classroom/grade.py puts this file in the learner kernel's copy of the course as
`standin/__init__.py`, in place of the whole stand-in. `agentlib.connect()` and
`coursekit.connect()` work as they do offline, but every request their clients send is
answered by the course model in the grader, through the runner (classroom/withheld.py's
`ask_model`): while the notebook's cells run it answers; once the checks start it refuses
(a 403 the SDK raises as PermissionDeniedError), so a graded function cannot use the
model's own validation, clearing or counting as its answer. The stand-in's code (its
validator, its edits, its summarizer) is not in the sandbox at all. A check that lends a
client (`agent_loop(client, ...)`) lends its own, through the wire's callbacks.
"""

from __future__ import annotations

import base64
import os

try:  # anthropic >= 2.14 ships on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

BASE_URL = "http://offline.invalid"

__all__ = ["BASE_URL", "in_process", "unscripted_seed"]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


def unscripted_seed(unscripted: bool | None = None, seed: int | None = None) -> int | None:
    """As `standin.unscripted_seed`: the unscripted stand-in's seed, or None."""
    if unscripted is None:
        unscripted = _flag("AGENTLIB_UNSCRIPTED")
    if not unscripted:
        return None
    if seed is None:
        raw = os.environ.get("AGENTLIB_SEED", "0").strip() or "0"
        try:
            seed = int(raw)
        except ValueError:
            raise ValueError(f"AGENTLIB_SEED must be an integer, got {raw!r}") from None
    return seed


class RemoteModel:
    """What a client's `course_model` says of the grader's model that answers it."""

    def __init__(self, number: int, model: str | None, context_window: int | None,
                 unscripted: int | None) -> None:
        self.number, self.model, self.context_window = number, model, context_window
        self.unscripted = unscripted

    def handle(self, method: str, path: str, headers: dict, body: bytes
               ) -> tuple[int, dict, bytes]:
        from classroom import withheld

        if withheld.ask_model is None:
            raise RuntimeError("this stand-in answers only inside the class grader's sandbox")
        answer = withheld.ask_model("request", {
            "model": self.number, "method": method, "path": path, "headers": dict(headers),
            "body": base64.b64encode(body).decode("ascii")})
        return (int(answer["status"]), dict(answer["headers"]),
                base64.b64decode(answer["body"]))


def _response(model: RemoteModel, request, body: bytes):  # noqa: ANN001, ANN202
    headers = {k.lower(): v for k, v in request.headers.items()}
    status, out, content = model.handle(request.method, request.url.path, headers, body)
    return httpx.Response(status, headers=out, content=content, request=request)


class _Transport(httpx.BaseTransport):
    def __init__(self, model: RemoteModel) -> None:
        self.model = model

    def handle_request(self, request):  # noqa: ANN001, ANN202
        return _response(self.model, request, request.read())


class _AsyncTransport(httpx.AsyncBaseTransport):
    def __init__(self, model: RemoteModel) -> None:
        self.model = model

    async def handle_async_request(self, request):  # noqa: ANN001, ANN202
        return _response(self.model, request, await request.aread())


def in_process(*, asynchronous: bool = False, context_window: int | None = None,
               faults: dict[int, int] | None = None, model: str | None = None,
               unscripted: bool | None = None, seed: int | None = None,
               thinking_summaries: bool = False):
    """(the model, an httpx client whose only destination is it), as `standin.in_process`
    gives them; the model is the grader's."""
    from classroom import withheld

    if withheld.ask_model is None:
        raise RuntimeError("this stand-in answers only inside the class grader's sandbox")
    chosen = unscripted_seed(unscripted, seed)
    made = withheld.ask_model("new", {"options": {
        "context_window": context_window, "model": model, "unscripted": chosen,
        "thinking_summaries": bool(thinking_summaries),
        "faults": {str(k): int(v) for k, v in (faults or {}).items()}}})
    remote = RemoteModel(int(made["model"]), made.get("name"), context_window, chosen)
    if asynchronous:
        return remote, httpx.AsyncClient(transport=_AsyncTransport(remote), base_url=BASE_URL)
    return remote, httpx.Client(transport=_Transport(remote), base_url=BASE_URL)
