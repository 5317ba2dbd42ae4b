"""Conformance of the offline course model, through the real `anthropic` SDK.

Every request goes SDK -> httpx transport -> `CourseModel.handle`; sockets are refused for
the whole module, so a test that passes here passes with no network at all.
"""

import socket
import time

import anthropic
import pytest
from anthropic.types import Message, TextBlock, ToolUseBlock

import agentlib
import coursekit
from agentlib import tokens
from agentlib.client import OFFLINE_KEY
from agentlib.messages import HistoryError, assistant, text, tool_result, tool_use, user, validate

MODEL = "course-model-1"
FAKE_KEY = "sk-" + "ant-api03-FAKE-KEY-for-tests-0123456789"  # split: no key-shaped literal
SYSTEM = "You audit configuration files. Answer from what you read."
TOOLS = [
    {"name": "list_files", "description": "List the files of the workspace.",
     "input_schema": {"type": "object", "properties": {}}},
    {"name": "read_file", "description": "Read a file of the workspace.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}},
]
TASK = "List the services whose timeout is above 30."


class NetworkUsed(AssertionError):
    pass


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Refuse every socket connection for every test of this module."""
    def refuse(*args, **kwargs):
        raise NetworkUsed(f"a test tried to use the network: {args[1:]!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture
def client():
    return agentlib.connect(offline=True)


def ask(q: str = "Hello there.") -> dict:
    return user(q)


def calls(*ids: str) -> dict:
    return assistant("Reading.", *[tool_use(i, "read_file", {"path": f"{i}.conf"}) for i in ids])


def answers(*ids: str) -> dict:
    return user(*[tool_result(i, f"timeout = 45 in {i}") for i in ids])


def create(c, messages, **kw):
    return c.messages.create(**{"model": MODEL, "max_tokens": 256, "messages": messages, **kw})


def expect_400(c, messages=None, *, calls_before: int | None = None, **kw
               ) -> anthropic.BadRequestError:
    """Send one request that must be refused with a 400, not retried, then return the error."""
    before = c.course_model.calls if calls_before is None else calls_before
    with pytest.raises(anthropic.BadRequestError) as info:
        if messages is None:
            c.messages.create(**{"model": MODEL, "max_tokens": 256, **kw})
        else:
            create(c, messages, **kw)
    e = info.value
    assert e.status_code == 400
    assert e.body["type"] == "error"
    assert e.body["error"]["type"] == "invalid_request_error"
    assert e.request_id and e.request_id.startswith("req_")
    assert e.body["request_id"] == e.request_id
    assert e.response.headers["x-should-retry"] == "false"
    assert c.course_model.calls == before + 1, "a 400 must not be retried"
    return e


def msg(e: anthropic.APIStatusError) -> str:
    return e.body["error"]["message"]


# ---------------------------------------------------------------- the network guard


def test_the_network_is_really_refused():
    with pytest.raises(NetworkUsed):
        socket.create_connection(("127.0.0.1", 9), timeout=0.1)
    s = socket.socket()
    try:
        with pytest.raises(NetworkUsed):
            s.connect(("127.0.0.1", 9))
    finally:
        s.close()


# ---------------------------------------------------------------- the API's 400s, exactly


def test_split_pair(client):
    e = expect_400(client, [ask(), calls("toolu_A", "toolu_B"), ask("what did you find?")])
    assert msg(e) == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_A, toolu_B. Each `tool_use` block must have a corresponding `tool_result` block "
        "in the next message.")


def test_partial_answer_lists_the_missing_id(client):
    e = expect_400(client, [ask(), calls("toolu_A", "toolu_B"), answers("toolu_A")])
    assert "immediately after: toolu_B. Each" in msg(e)
    assert msg(e).startswith("messages.1: ")


def test_orphan_tool_result(client):
    e = expect_400(client, [ask(), assistant("No tools needed."), answers("toolu_X")])
    assert msg(e) == (
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_X. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous "
        "message.")


def test_text_before_tool_result(client):
    e = expect_400(client, [ask(), calls("toolu_A"),
                            user("here it is", tool_result("toolu_A", "timeout = 45"))])
    assert msg(e).startswith("messages.1: `tool_use` ids were found without `tool_result` "
                             "blocks immediately after: toolu_A.")


@pytest.mark.parametrize("empty", ["", []], ids=["string", "list"])
def test_empty_content(client, empty):
    e = expect_400(client, [ask(), assistant("hi"), {"role": "user", "content": empty}])
    assert msg(e) == ("messages.2: all messages must have non-empty content except for the "
                      "optional final assistant message")


def test_blank_text(client):
    e = expect_400(client, [ask(), assistant("hi"), user(" \n ")])
    assert msg(e) == "messages: text content blocks must contain non-whitespace text"


def test_no_messages(client):
    e = expect_400(client, [])
    assert msg(e) == "messages: at least one message is required"


def test_prompt_too_long():
    c = coursekit.connect(offline=True, context_window=60)
    history = [ask("word " * 200)]
    n = tokens.count(history)
    assert n > 60
    e = expect_400(c, history)
    assert msg(e) == f"prompt is too long: {n} tokens > 60 maximum"


def test_prompt_too_long_counts_system_and_tools():
    history = [ask("Which timeouts are above 30?")]
    n = tokens.input_tokens(history, system=SYSTEM, tools=TOOLS, model=MODEL)
    c = coursekit.connect(offline=True, context_window=n - 1)
    e = expect_400(c, history, system=SYSTEM, tools=TOOLS)
    assert msg(e) == f"prompt is too long: {n} tokens > {n - 1} maximum"


def test_input_plus_max_tokens_over_the_window_cuts_the_reply():
    """Current models answer into the room the window leaves and say so in the stop reason
    (docs/api-facts.md 3.2); the old 400 is gone."""
    c = coursekit.connect(offline=True, context_window=1000)
    history = [ask(TASK)]
    n = tokens.input_tokens(history, system=SYSTEM, tools=TOOLS, model=MODEL)
    full = create(c, history, system=SYSTEM, tools=TOOLS, max_tokens=1000 - n)
    assert full.stop_reason == "tool_use"  # exactly at the limit: room for everything
    room = full.usage.output_tokens - 1  # one token short of the whole reply
    tight = coursekit.connect(offline=True, context_window=n + room)
    r = create(tight, history, system=SYSTEM, tools=TOOLS, max_tokens=512)
    assert r.stop_reason == "model_context_window_exceeded"
    assert r.usage.input_tokens == n and r.usage.output_tokens <= room
    assert not [b for b in r.content if b.type == "tool_use"]  # the call did not fit


def test_empty_final_assistant_message_is_accepted(client):
    r = create(client, [ask(), assistant()])
    assert isinstance(r, Message)


def test_consecutive_turns_are_merged_and_accepted(client):
    assert isinstance(create(client, [ask("one"), ask("two")]), Message)
    history = [ask(TASK), calls("toolu_A", "toolu_B"), answers("toolu_A"), answers("toolu_B")]
    assert isinstance(create(client, history, tools=TOOLS), Message)
    history = [ask(TASK), calls("toolu_A"), calls("toolu_B"), answers("toolu_A", "toolu_B")]
    assert isinstance(create(client, history, tools=TOOLS), Message)


# ---------------------------------------------------------------- validate and the model agree

AGREEMENT = {
    "one-user": [ask()],
    "pair": [ask(TASK), calls("toolu_A"), answers("toolu_A")],
    "merged-users": [ask("a"), ask("b")],
    "results-across-two-users": [ask(TASK), calls("toolu_A", "toolu_B"), answers("toolu_A"),
                                 answers("toolu_B")],
    "prefill": [ask(), assistant()],
    "split": [ask(), calls("toolu_A", "toolu_B"), ask("and?")],
    "partial": [ask(), calls("toolu_A", "toolu_B"), answers("toolu_B")],
    "orphan": [ask(), assistant("ok"), answers("toolu_Z")],
    "result-first": [answers("toolu_Z")],
    "text-first": [ask(), calls("toolu_A"), user("look:", tool_result("toolu_A", "r"))],
    "empty": [ask(), {"role": "assistant", "content": []}, ask()],
    "blank": [ask(), assistant("ok"), user("   ")],
    "none": [],
    "unknown-type": [{"role": "user", "content": [{"type": "nonsense"}]}],
    "text-not-string": [{"role": "user", "content": [{"type": "text", "text": 5}]}],
    "tool_use-in-user": [user("x", tool_use("toolu_A", "f"))],
}


@pytest.mark.parametrize("history", AGREEMENT.values(), ids=AGREEMENT.keys())
def test_validate_and_the_model_agree(client, history):
    try:
        validate(history)
        expected = None
    except HistoryError as err:
        expected = err.api_message
    if expected is None:
        assert isinstance(create(client, history, tools=TOOLS), Message)
    else:
        assert msg(expect_400(client, history, tools=TOOLS)) == expected


def test_agreement_covers_both_outcomes():
    outcomes = set()
    for h in AGREEMENT.values():
        try:
            validate(h)
            outcomes.add("ok")
        except HistoryError:
            outcomes.add("400")
    assert outcomes == {"ok", "400"}


# ---------------------------------------------------------------- malformed requests


@pytest.mark.parametrize("kwargs, needle", [
    ({"messages": [{"role": "user", "content": [{"type": "nonsense"}]}], "max_tokens": 10},
     "messages.0.content.0: Input tag 'nonsense'"),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}],
      "max_tokens": 10}, "messages.0.content.0.text: Input should be a valid string"),
    ({"messages": [answers("toolu_unknown")], "max_tokens": 10},
     "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
     "toolu_unknown."),
    ({"messages": [ask()], "max_tokens": -5}, "max_tokens: Input should be a valid integer"),
    ({"messages": "hello", "max_tokens": 10}, "messages: Input should be a valid list"),
    ({"messages": {"role": "user", "content": "hi"}, "max_tokens": 10},
     "messages: Input should be a valid list"),
    ({"messages": [ask()], "max_tokens": 10, "system": 5}, "system: Input should be"),
    ({"messages": [ask()], "max_tokens": 10, "system": [{"type": "image"}]},
     "system: Input should be"),
    ({"messages": [ask()], "max_tokens": 10, "tools": [{"description": "no name"}]},
     "tools.0.name: Field required"),
    ({"messages": [ask()], "max_tokens": 10, "tools": [{"name": "f"}]},
     "tools.0.input_schema: Field required"),
    ({"messages": [ask()], "max_tokens": 10, "stream": "yes"}, "stream"),
    ({"messages": [{"role": "system", "content": "hi"}], "max_tokens": 10},
     "messages.0: role 'system' cannot be the first message"),
], ids=["unknown-block", "text-not-string", "unknown-tool-id", "max_tokens-negative", "messages-string", "messages-dict", "system-int",
        "system-bad-block", "tool-no-name", "tool-no-schema", "stream", "role-system"])
def test_malformed_requests_are_400s(client, kwargs, needle):
    e = expect_400(client, model=MODEL, **kwargs)
    assert type(e) is anthropic.BadRequestError
    assert needle in msg(e)


@pytest.mark.parametrize("body, needle", [
    ({"model": MODEL, "messages": [ask()]}, "max_tokens: Field required"),
    ({"messages": [ask()], "max_tokens": 10}, "model: Field required"),
    ({"model": MODEL, "max_tokens": 10}, "messages: Field required"),
    ({"model": MODEL, "messages": [ask()], "max_tokens": "10"}, "max_tokens: Input should be"),
    ({"model": MODEL, "messages": [ask()], "max_tokens": True}, "max_tokens: Input should be"),
    ([1, 2, 3], "request body must be a JSON object"),
], ids=["no-max_tokens", "no-model", "no-messages", "max_tokens-string", "max_tokens-bool",
        "body-not-object"])
def test_malformed_bodies_sent_raw_are_400s(client, body, needle):
    """Bodies the SDK's typed `create` would refuse to build, sent through `client.post`."""
    with pytest.raises(anthropic.BadRequestError) as info:
        client.post("/v1/messages", cast_to=Message, body=body)
    assert info.value.status_code == 400
    assert needle in msg(info.value)
    assert client.course_model.calls == 1


def test_a_body_that_is_not_json_is_a_400(client):
    with pytest.raises(anthropic.BadRequestError) as info:
        client.post("/v1/messages", cast_to=Message, content=b"{not json",
                    options={"headers": {"content-type": "application/json"}})
    assert msg(info.value) == "The request body is not valid JSON: unexpected character, " \
        "expected a string key: line 1 column 2 (char 1)"


def test_the_sdk_itself_refuses_a_create_without_max_tokens(client):
    """The typed SDK raises TypeError before sending anything; the model is never asked."""
    with pytest.raises(TypeError, match="max_tokens"):
        client.messages.create(model=MODEL, messages=[ask()])
    assert client.course_model.calls == 0


def test_count_tokens_checks_the_history_too(client):
    with pytest.raises(anthropic.BadRequestError) as info:
        client.messages.count_tokens(model=MODEL, messages=[ask(), calls("toolu_A")])
    assert "toolu_A" in msg(info.value)


def test_unknown_path_and_oversized_body_at_the_server():
    model = agentlib.connect(offline=True).course_model
    status, headers, _ = model.handle("GET", "/v1/messages", {"x-api-key": "k"}, b"")
    assert status == 404
    status, headers, body = model.handle("POST", "/v1/messages", {}, b" " * (32 * 1024 * 1024 + 1))
    assert status == 413 and b"request_too_large" in body  # refused before the key is read
    assert headers["x-should-retry"] == "false"


# ---------------------------------------------------------------- fault injection and retries


def test_retried_faults_then_success():
    c = coursekit.connect(faults={1: 529, 2: 429})
    r = create(c, [ask()])
    assert isinstance(r, Message)
    assert c.course_model.calls == 3


def test_overloaded_without_retries():
    assert hasattr(anthropic, "OverloadedError")
    c = coursekit.connect(faults={1: 529}, max_retries=0)
    with pytest.raises(anthropic.OverloadedError) as info:
        create(c, [ask()])
    e = info.value
    assert isinstance(e, anthropic.InternalServerError)
    assert e.status_code == 529
    assert e.body["error"]["type"] == "overloaded_error"
    assert e.request_id.startswith("req_")
    assert c.course_model.calls == 1


def test_rate_limited_without_retries():
    c = coursekit.connect(faults={1: 429}, max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as info:
        create(c, [ask()])
    assert info.value.status_code == 429
    assert info.value.body["error"]["type"] == "rate_limit_error"


def test_internal_server_error_without_retries():
    c = coursekit.connect(faults={1: 500}, max_retries=0)
    with pytest.raises(anthropic.InternalServerError) as info:
        create(c, [ask()])
    assert info.value.status_code == 500
    assert not isinstance(info.value, anthropic.OverloadedError)
    assert info.value.body["error"]["type"] == "api_error"


def test_faults_beyond_the_retries_surface():
    c = coursekit.connect(faults={1: 529, 2: 529, 3: 529}, max_retries=2)
    with pytest.raises(anthropic.OverloadedError):
        create(c, [ask()])
    assert c.course_model.calls == 3
    assert isinstance(create(c, [ask()]), Message)  # call 4 has no fault
    assert c.course_model.calls == 4


def test_a_400_is_not_retried_even_with_retries_left():
    c = agentlib.connect(max_retries=5)
    expect_400(c, [ask(), calls("toolu_A")])
    assert c.course_model.calls == 1


# ---------------------------------------------------------------- determinism and ids


def test_the_same_request_gives_byte_identical_responses():
    history = [ask(TASK)]
    raws = []
    for _ in range(2):
        c = agentlib.connect(offline=True)
        raws.append(c.messages.with_raw_response.create(
            model=MODEL, max_tokens=256, messages=history, system=SYSTEM, tools=TOOLS))
    c = agentlib.connect(offline=True)
    raws.append(c.messages.with_raw_response.create(
        model=MODEL, max_tokens=256, messages=history, system=SYSTEM, tools=TOOLS))
    raws.append(c.messages.with_raw_response.create(
        model=MODEL, max_tokens=256, messages=history, system=SYSTEM, tools=TOOLS))
    bodies = {r.http_response.content for r in raws}
    assert len(bodies) == 1
    parsed = [r.parse() for r in raws]
    assert len({m.id for m in parsed}) == 1
    assert parsed[0].id.startswith("msg_")
    ids = [r.headers["request-id"] for r in raws]  # a new id for each request, as the API
    assert ids[0] == ids[1] == ids[2] != ids[3]  # gives; a new kernel replays the same ids
    tool_ids = {b.id for m in parsed for b in m.content if b.type == "tool_use"}
    assert len(tool_ids) == 1 and next(iter(tool_ids)).startswith("toolu_")


def test_different_requests_get_different_ids(client):
    a = create(client, [ask("one")])
    b = create(client, [ask("two")])
    c = create(client, [ask("one")], max_tokens=300)
    d = create(client, [ask("one")], system="Be brief.")
    assert len({a.id, b.id, c.id, d.id}) == 4


# ---------------------------------------------------------------- counting tokens


def test_count_tokens_equals_usage_and_the_library_count(client):
    history = [ask(TASK), calls("toolu_A"), answers("toolu_A")]
    counted = client.messages.count_tokens(model=MODEL, messages=history, system=SYSTEM,
                                           tools=TOOLS)
    r = create(client, history, system=SYSTEM, tools=TOOLS)
    assert counted.input_tokens == r.usage.input_tokens
    assert counted.input_tokens == tokens.input_tokens(history, system=SYSTEM, tools=TOOLS,
                                                       model=MODEL)
    # a list-of-blocks system counts the same way on both sides
    sys_blocks = [text(SYSTEM)]
    assert client.messages.count_tokens(model=MODEL, messages=history, system=sys_blocks
                                        ).input_tokens == tokens.count(history, system=sys_blocks)


def test_a_huge_request_fails_fast():
    para = ("The agent read the configuration file and noted the timeout value before moving "
            "on to the next service in the list. ")
    big = para * (5_000_000 // len(para) + 1)
    assert len(big) >= 5_000_000
    c = coursekit.connect(offline=True, context_window=200_000)
    start = time.perf_counter()
    e = expect_400(c, [ask(big)])
    elapsed = time.perf_counter() - start
    assert msg(e).startswith("prompt is too long: ")
    assert msg(e).endswith(" tokens > 200000 maximum")
    assert elapsed < 5, f"took {elapsed:.1f} s"


# ---------------------------------------------------------------- responses


def test_responses_are_real_sdk_messages(client):
    r = create(client, [ask()])
    assert isinstance(r, Message)
    assert r.type == "message" and r.role == "assistant" and r.model == MODEL
    assert r.stop_reason == "end_turn"
    assert isinstance(r.content[0], TextBlock) and r.content[0].text
    assert r.usage.input_tokens == tokens.count([ask()])
    assert r.usage.output_tokens == tokens.count(r.to_dict()["content"])
    assert r.usage.cache_creation_input_tokens == 0 and r.usage.cache_read_input_tokens == 0


def test_a_tool_call_round_trip(client):
    history = [ask(TASK)]
    r = create(client, history, system=SYSTEM, tools=TOOLS)
    assert r.stop_reason == "tool_use"
    uses = [b for b in r.content if isinstance(b, ToolUseBlock)]
    assert uses and uses[0].name == "list_files" and uses[0].id.startswith("toolu_")
    history += [{"role": "assistant", "content": [b.to_dict() for b in r.content]},
                user(tool_result(uses[0].id, "configs/api.conf (2 lines)"))]
    validate(history)
    r2 = create(client, history, system=SYSTEM, tools=TOOLS)
    assert r2.stop_reason in ("tool_use", "end_turn")


def test_max_tokens_stops_the_answer(client):
    r = create(client, [ask()], max_tokens=10)
    assert r.stop_reason == "max_tokens"
    assert r.usage.output_tokens <= 10


@pytest.mark.parametrize("max_tokens", [1, 2, 3, 5])
def test_output_tokens_never_exceed_max_tokens(client, max_tokens):
    r = create(client, [ask()], max_tokens=max_tokens)
    assert r.stop_reason == "max_tokens"
    assert r.usage.output_tokens <= max_tokens


def test_a_valid_request_never_gets_a_500():
    c = agentlib.connect(offline=True, max_retries=0)
    history = [
        ask(TASK),
        assistant(tool_use("toolu_1", "list_files")),
        user(tool_result("toolu_1", "configs/api.conf (1 line)")),
        assistant(tool_use("toolu_2", "read_file", {"path": "configs/api.conf"})),
        user(tool_result("toolu_2", "timeout = 30s")),
    ]
    validate(history)
    assert isinstance(create(c, history, tools=TOOLS), Message)


# ---------------------------------------------------------------- connect()


@pytest.fixture
def clean_env(monkeypatch):
    for var in ("ANTHROPIC_API_KEY", "AGENTLIB_OFFLINE", "ANTHROPIC_BASE_URL",
                "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def is_offline_client(c) -> bool:
    return hasattr(c, "course_model") and str(c.base_url).startswith("http://offline.invalid")


def test_connect_without_a_key_is_offline(clean_env):
    c = agentlib.connect()
    assert is_offline_client(c)
    assert isinstance(create(c, [ask()]), Message)


def test_agentlib_offline_wins_over_a_key(clean_env):
    clean_env.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    clean_env.setenv("AGENTLIB_OFFLINE", "1")
    c = agentlib.connect()
    assert is_offline_client(c)
    assert c.api_key == OFFLINE_KEY
    assert isinstance(create(c, [ask()]), Message)
    assert is_offline_client(agentlib.connect(offline=False))


def test_a_key_without_agentlib_offline_is_the_real_api(clean_env):
    """Only builds the client: no request is sent (and sockets are refused anyway)."""
    clean_env.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    for flag in (None, "0"):
        if flag is not None:
            clean_env.setenv("AGENTLIB_OFFLINE", flag)
        c = agentlib.connect()
        assert isinstance(c, anthropic.Anthropic)
        assert not hasattr(c, "course_model")
        assert str(c.base_url).startswith("https://api.anthropic.com")
        assert c.api_key == FAKE_KEY
        assert FAKE_KEY not in repr(c)
        assert FAKE_KEY not in str(c)


def test_offline_true_is_offline_even_with_a_key(clean_env):
    clean_env.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    c = agentlib.connect(offline=True)
    assert is_offline_client(c)
    assert FAKE_KEY not in repr(c)


def test_connect_model_option_names_the_default_model(monkeypatch):
    from agentlib.client import DEFAULT_MODEL, OFFLINE_MODEL, model_name

    assert model_name(agentlib.connect(offline=True)) == OFFLINE_MODEL
    assert model_name(agentlib.connect(offline=True, model="course-x")) == "course-x"
    monkeypatch.delenv("AGENTLIB_OFFLINE", raising=False)
    monkeypatch.delenv("AGENTLIB_MODEL", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    assert model_name(agentlib.connect()) == DEFAULT_MODEL
    assert model_name(agentlib.connect(model="claude-haiku-4-5")) == "claude-haiku-4-5"
