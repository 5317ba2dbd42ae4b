"""run_agent on a real network and a real model: any run may end without an answer, and
nothing is lost when it does (connection errors, timeouts, replies cut short, thinking
bound to an edited conversation)."""

import anthropic
import pytest

try:
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx

import agentlib
import coursekit
from agentlib import loop, models
from agentlib.context import Clearing, SlidingWindow
from agentlib.loop import run_agent
from coursekit import workloads
from standin.server import CourseModel
from standin.transport import BASE_URL, OfflineTransport


class Flaky(OfflineTransport):
    """The offline model, but create call number `at` (counted from 0) fails with `error`."""

    def __init__(self, model, at: int, error: Exception):
        super().__init__(model)
        self.at, self.error, self.creates = at, error, 0

    def handle_request(self, request):
        if request.url.path == "/v1/messages":
            self.creates += 1
            if self.creates - 1 == self.at:
                raise self.error
        return super().handle_request(request)


def flaky_client(at: int, error: Exception, retries: int = 0) -> anthropic.Anthropic:
    model = CourseModel()
    return anthropic.Anthropic(api_key="offline", base_url=BASE_URL, max_retries=retries,
                               http_client=httpx.Client(transport=Flaky(model, at, error),
                                                        base_url=BASE_URL))


@pytest.fixture(scope="module")
def clean():
    return run_agent(agentlib.connect(offline=True), workloads.audit(8))


@pytest.mark.parametrize("k", [0, 3, 7])
def test_a_connection_error_at_step_k_keeps_steps_before_it_and_the_history(clean, k):
    run = run_agent(flaky_client(k, httpx.ConnectError("connection reset by peer")),
                    workloads.audit(8), model=models.OFFLINE_MODEL)
    assert run.calls == k + 1 and run.answer is None
    assert [s.input_tokens for s in run.steps[:k]] == [s.input_tokens for s in clean.steps[:k]]
    assert run.steps[k].error.startswith("APIConnectionError: Connection error.")
    assert "connection reset by peer" in run.steps[k].error
    assert run.stopped.startswith("error: APIConnectionError")
    assert run.history == clean.history[:1 + 2 * k]  # the task and k whole rounds
    assert run.transcript == run.history and run.steps[k].sent == run.history


def test_a_timeout_ends_the_run_the_same_way(clean):
    run = run_agent(flaky_client(2, httpx.ReadTimeout("read timed out")), workloads.audit(8),
                    model=models.OFFLINE_MODEL)
    assert run.steps[-1].error.startswith("APITimeoutError: Request timed out")
    assert run.steps[-1].error.endswith("(ReadTimeout: read timed out)")
    assert run.calls == 3 and run.history == clean.history[:5]


def test_a_blip_is_retried_by_the_client_and_changes_nothing(clean):
    run = run_agent(flaky_client(3, httpx.ConnectError("blip"), retries=2), workloads.audit(8),
                    model=models.OFFLINE_MODEL)
    assert run.history == clean.history and run.score == clean.score


def test_an_api_error_raised_by_a_strategy_ends_the_run_with_its_trace(clean):
    def failing(messages):
        if len(messages) > 5:
            raise anthropic.APIConnectionError(request=httpx.Request("POST", BASE_URL))
        return messages

    run = run_agent(agentlib.connect(offline=True), workloads.audit(8), context=[failing])
    assert run.calls == 4 and run.steps[-1].error.startswith("APIConnectionError")
    assert run.history == clean.history[:7] and run.steps[-1].input_tokens == 0


def test_a_reply_cut_at_max_tokens_is_never_the_answer():
    run = run_agent(agentlib.connect(offline=True), workloads.audit(4010))
    assert run.stopped == "cut: max_tokens" and run.calls == 2 and run.answer is None
    assert run.steps[-1].stop_reason == "max_tokens"
    assert run.history[-1]["role"] == "assistant"  # the cut reply is kept, for reading
    small = run_agent(agentlib.connect(offline=True), workloads.audit(200), max_tokens=300)
    assert small.stopped == "cut: max_tokens" and not small.score.success


# ---------------------------------------------------------------- thinking bound to a prefix

def test_thinking_bound_to_an_edited_conversation_is_dropped_before_sending():
    """The default Claude model binds its thinking blocks to the conversation before them:
    after a strategy edits that conversation, the blocks must go (the API's 400 says so)."""
    client = coursekit.connect(offline=True, unscripted=True, seed=1)
    run = run_agent(client, workloads.audit(8), context=[SlidingWindow(6)])
    assert not any("thinking" in (s.error or "") for s in run.steps), run.stopped
    thinking = [b for m in run.transcript if m["role"] == "assistant" for b in m["content"]
                if b["type"] == "thinking"]
    assert thinking  # the model did think (between its tool calls)


def test_without_dropping_them_the_api_answers_400(monkeypatch):
    monkeypatch.setattr(loop, "drop_stale_thinking", lambda before, after: after)
    client = coursekit.connect(offline=True, unscripted=True, seed=1)
    run = run_agent(client, workloads.audit(8), context=[Clearing(1, trigger=1_500)])
    assert "bound to a different conversation" in run.steps[-1].error


def test_dropping_keeps_what_no_edit_touched():
    a = {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "signature": "s"},
                                         {"type": "tool_use", "id": "t", "name": "x",
                                          "input": {}}]}
    u = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": "r"}]}
    task = {"role": "user", "content": "go"}
    history = [task, a, u, a, u]
    assert loop.drop_stale_thinking(history, history) is history
    same_start = [task, a, {**u, "content": [{**u["content"][0], "content": "cleared"}]}, a, u]
    out = loop.drop_stale_thinking(history, same_start)
    assert out[1] is a and [b["type"] for b in out[3]["content"]] == ["tool_use"]
    assert same_start[3] is a  # the strategy's output is not changed in place


def test_shown_thinking_stays_as_text_so_the_notes_survive_an_edit():
    shown = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "auth: 20, not above", "signature": "s"},
        {"type": "tool_use", "id": "t", "name": "x", "input": {}}]}
    u = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": "r"}]}
    before = [{"role": "user", "content": "go"}, shown, u]
    out = loop.drop_stale_thinking(before, before[1:])  # the task dropped
    assert out[0]["content"][0] == {"type": "text", "text": "auth: 20, not above"}
    summarized = {"thinking": {"type": "between_tools", "display": "summarized"}}
    small = coursekit.connect(offline=True, unscripted=True, seed=0, context_window=8_000)
    run = run_agent(small, workloads.audit(12), max_tokens=512, extra=summarized,
                    context=[Clearing(3, trigger=4_000)])
    assert run.score.success  # the notes in shown thinking outlived the clearing
