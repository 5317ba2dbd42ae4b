"""What the grader answers when a notebook's own code asks (classroom/withheld.py's door):
the course model for the notebook's own clients, and the served functions its cells use.

Both are answered only while the notebook's cells run (`open`): its setup cells run an
agent, validate their history. Once the checks start (`close()`), every ask is refused,
whichever process or thread of the notebook sends it, so nothing a graded function reaches
on its own can do its work, and nothing computed earlier from public inputs can answer the
checks' inputs, drawn at grading time (classroom/grading.py `seed`). A check that lends
a client lends its own, answered through the wire's callbacks (classroom/grader/remote.py).
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from classroom.grader.wire import Codec, WireError, encode_error

REFUSED = ("the course model answers the notebook's own clients only while its cells run; "
           "once the checks start it answers only the client a check gives a function")
PLAIN = (str, int, float, bool, type(None))


class Lender:
    """State: whether the cells still run, the course models made for the notebook, and the
    served functions (spec -> the exercises that withhold them)."""

    def __init__(self, served: dict[str, str]) -> None:
        self.open = True
        self.served = dict(served)
        self.models: list[Any] = []
        self.codec = Codec()

    def close(self) -> None:
        """The checks start: refuse from now on."""
        self.open = False

    def answer(self, message: dict) -> dict:
        """The answer to one `ask` message (never raises)."""
        reply: dict[str, Any] = {"op": "answer", "n": message.get("n")}
        try:
            if message.get("what") == "model":
                reply.update(self._model(message))
            elif message.get("what") == "served":
                reply.update(self._served(message))
            else:
                raise WireError(f"nothing to ask for by {message.get('what')!r}")
        except Exception as exc:  # noqa: BLE001 (told to the notebook, as its error)
            reply["error"] = encode_error(exc)
        return reply

    def _model(self, message: dict) -> dict:
        if message.get("do") == "new":
            if not self.open:
                raise PermissionError(REFUSED)
            import standin

            options = message.get("options") or {}
            chosen = options.get("unscripted")
            model, _ = standin.in_process(
                context_window=options.get("context_window"), model=options.get("model"),
                unscripted=chosen is not None, seed=chosen,
                faults={int(k): int(v) for k, v in (options.get("faults") or {}).items()},
                thinking_summaries=bool(options.get("thinking_summaries")))
            self.models.append(model)
            return {"model": len(self.models) - 1, "name": model.model}
        number = int(message.get("model", -1))
        if not 0 <= number < len(self.models):
            raise WireError(f"no course model {number}")
        if not self.open:
            return _refusal()
        status, headers, body = self.models[number].handle(
            str(message.get("method")), str(message.get("path")),
            {str(k): str(v) for k, v in (message.get("headers") or {}).items()},
            base64.b64decode(str(message.get("body", ""))))
        return {"status": status, "headers": headers,
                "body": base64.b64encode(body).decode("ascii")}

    def _served(self, message: dict) -> dict:
        spec = str(message.get("spec"))
        if spec not in self.served:
            raise WireError(f"{spec} is not served")
        module, _, name = spec.partition(":")
        try:
            if not self.open:
                from classroom.withheld import withheld

                withheld(spec, self.served[spec], False, (), {})  # raises Withheld
            fn: Any = importlib.import_module(module)
            for part in name.split("."):
                fn = getattr(fn, part)
            value = fn(*self.codec.decode(message.get("args") or []),
                       **self.codec.decode(message.get("kwargs") or {}))
        except Exception as exc:  # noqa: BLE001 (the course's own error, as the course raises it)
            error = encode_error(exc)
            error["module"] = type(exc).__module__
            error["attrs"] = {k: v for k, v in vars(exc).items() if isinstance(v, PLAIN)}
            return {"error": error}
        return {"value": self.codec.encode(value)}


def _refusal() -> dict:
    """The API's shape of a 403, for a request the notebook's own client sent too late."""
    import json

    body = {"type": "error", "error": {"type": "permission_error", "message": REFUSED},
            "request_id": "req_offline_refused"}
    return {"status": 403, "headers": {"content-type": "application/json",
                                       "x-should-retry": "false"},
            "body": base64.b64encode(json.dumps(body).encode()).decode("ascii")}
