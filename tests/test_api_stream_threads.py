"""Streaming and message threads through the real SDK (docs/api-facts.md sections 10, 11).

Streams are server-sent events built from the finished message, so a streamed reply and a
plain one agree. Threads are refused with the documented `thread_unsupported_request`
error, and the SDK's runner falls back to sending the whole conversation by itself.
"""

import asyncio
import json

import anthropic
import pytest
from anthropic import beta_tool
from apitools import LOG_TOOL, MODEL, SONNET, TASK, ask, connect, message, no_network, refused  # noqa: F401

import agentlib
from agentlib.messages import user
from coursekit import workloads


def same_reply(a, b) -> bool:
    """Two replies with the same blocks (ids aside: they derive from the request bytes)."""
    def shape(m):
        return [{k: v for k, v in blk.to_dict().items() if k != "id"} for blk in m.content]
    return shape(a) == shape(b) and a.stop_reason == b.stop_reason and \
        a.usage.output_tokens == b.usage.output_tokens


def test_messages_stream_gives_the_same_reply():
    c = connect()
    with c.messages.stream(model=SONNET, max_tokens=512, messages=[user(TASK)],
                           tools=[LOG_TOOL]) as s:
        texts = list(s.text_stream)
        final = s.get_final_message()
    plain = ask(c, model=SONNET)
    assert same_reply(final, plain)
    assert "".join(texts) == "".join(b.text for b in final.content if b.type == "text")
    assert final.content[0].type == "thinking" and final.content[0].signature  # whole


def test_create_stream_true_sends_the_events_in_order():
    c = connect()
    events = list(ask(c, stream=True, thinking={"type": "adaptive"}))
    kinds = [e.type for e in events]
    assert kinds[:2] == ["message_start", "content_block_start"]  # the SDK skips the ping
    assert kinds[-2:] == ["message_delta", "message_stop"]
    starts = [e.index for e in events if e.type == "content_block_start"]
    assert starts == [0, 1, 2] and kinds.count("content_block_stop") == 3
    deltas = [e.delta.type for e in events if e.type == "content_block_delta"]
    assert {"thinking_delta", "signature_delta", "text_delta", "input_json_delta"} <= set(deltas)
    assert deltas.count("signature_delta") == 1
    start = events[0].message
    assert start.content == [] and start.stop_reason is None
    assert events[-2].delta.stop_reason == "tool_use"


def test_a_large_max_tokens_needs_streaming_and_works_streamed():
    """The SDK refuses non-streaming calls that may exceed 10 minutes; streamed, fine."""
    c = connect()
    with pytest.raises(ValueError, match="Streaming is required"):
        ask(c, max_tokens=64_000)
    with c.messages.stream(model=MODEL, max_tokens=64_000, messages=[user(TASK)],
                           tools=[LOG_TOOL]) as s:
        assert s.get_final_message().stop_reason == "tool_use"


def test_errors_before_the_stream_are_plain_api_errors():
    c = connect()
    with pytest.raises(anthropic.BadRequestError) as info:
        with c.messages.stream(model=MODEL, max_tokens=64, messages=[]) as s:
            s.get_final_message()
    assert message(info.value) == "messages: at least one message is required"


def test_server_edits_and_compaction_stream():
    c = connect()
    pasted = "\n".join(f"09:{i % 60:02d} INFO worker {i} ok" for i in range(6_000))
    history = [user(pasted), {"role": "assistant", "content": "Noted."}, user(TASK)]
    edit = {"edits": [{"type": "compact_20260112",
                       "trigger": {"type": "input_tokens", "value": 50_000}}]}
    with c.beta.messages.stream(model=MODEL, max_tokens=512, messages=history,
                                betas=["compact-2026-01-12"], context_management=edit) as s:
        final = s.get_final_message()
    assert final.content[0].type == "compaction" and final.content[0].content
    assert final.context_management.applied_edits == []


def test_the_async_client():
    async def main():
        a = agentlib.connect_async(offline=True)
        plain = await a.messages.create(model=MODEL, max_tokens=256, messages=[user(TASK)])
        async with a.messages.stream(model=MODEL, max_tokens=256,
                                     messages=[user(TASK)]) as s:
            streamed = await s.get_final_message()
        counted = await a.messages.count_tokens(model=MODEL, messages=[user(TASK)])
        return plain, streamed, counted, a

    plain, streamed, counted, a = asyncio.run(main())
    assert isinstance(a, anthropic.AsyncAnthropic) and a.course_model.calls == 3
    assert same_reply(plain, streamed) and counted.input_tokens == plain.usage.input_tokens


# ---------------------------------------------------------------- threads

def test_a_thread_request_is_refused_with_the_documented_code():
    c = connect()
    e = refused(lambda: ask(c, beta=True, thread={"type": "create"}))
    assert message(e) == "thread: Extra inputs are not permitted"  # without its beta
    e = refused(lambda: ask(c, beta=True, thread={"type": "create"},
                            betas=["message-threads-2026-08-12"]))
    assert type(e).__name__ == "ThreadUnsupportedRequestError"
    assert e.body["error"]["details"] == {"error_code": "thread_unsupported_request"}
    thread = c.beta.messages.thread(model=MODEL, max_tokens=256)
    with pytest.raises(anthropic.BadRequestError, match="thread: the offline course model"):
        thread.send(user(TASK))  # the thread helper raises by default, as documented


def _needle_runner(client, **kw):
    work = workloads.needle(60)
    tools = [beta_tool(work.workspace.read_file)]
    return work, client.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=tools,
                                                  messages=[user(work.task)], **kw)


def _answer(reply) -> str:
    return "\n".join(b.text for b in reply.content if b.type == "text")


def test_tool_runner_falls_back_and_finishes_a_course_task():
    c = connect()
    bodies = []
    handle = c.course_model.handle

    def spy(method, path, headers, body):
        bodies.append((headers.get("anthropic-beta", ""), json.loads(body)))
        return handle(method, path, headers, body)

    c.course_model.handle = spy
    work, runner = _needle_runner(c)
    replies = list(runner)
    assert work.score(_answer(replies[-1])).success
    assert "thread" in bodies[0][1] and "message-threads" in bodies[0][0]
    later = [b for _, b in bodies[1:]]
    assert all("thread" not in b and "tools" in b for b in later)  # unthreaded, whole
    assert [len(b["messages"]) for b in later] == [1 + 2 * i for i in range(len(later))]
    assert len(bodies) == len(replies) + 1  # one refused request, then one per reply


def test_tool_runner_streaming_falls_back_too():
    c = connect()
    work, runner = _needle_runner(c, stream=True)
    finals = [stream.get_final_message() for stream in runner]
    assert work.score(_answer(finals[-1])).success
    assert c.course_model.calls == len(finals) + 1


def test_async_tool_runner_falls_back_too():
    work = workloads.needle(60)

    @beta_tool
    def read_file(path: str, offset: int = 0) -> str:
        """Read a file of the workspace.

        Args:
            path: the file's path
            offset: the first line to read
        """
        return work.workspace.read_file(path, offset=offset)

    async def main():
        a = agentlib.connect_async(offline=True)
        runner = a.beta.messages.tool_runner(model=MODEL, max_tokens=1024,
                                             messages=[user(work.task)],
                                             tools=[_async(read_file)])
        return [r async for r in runner], a

    replies, a = asyncio.run(main())
    assert work.score(_answer(replies[-1])).success
    assert a.course_model.calls == len(replies) + 1


def _async(tool):
    """The async runner takes async tools: the same function behind `beta_async_tool`."""
    from anthropic import beta_async_tool

    fn = tool.func

    async def read_file(path: str, offset: int = 0) -> str:
        return fn(path, offset)

    read_file.__doc__ = fn.__doc__
    return beta_async_tool(read_file)
