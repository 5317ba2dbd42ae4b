"""Server-side compaction and count_tokens through the real SDK: null blocks are no-ops,
the summary is bounded and wrapped as the default prompt asks, count_tokens applies
compaction blocks and edits, `usage.iterations`, and top-level on-demand `compaction`
(docs/api-facts.md sections 7 and 8)."""

from anthropic import beta_tool
from apitools import MODEL, TASK, ask, connect, message, no_network, refused  # noqa: F401

from agentlib import tokens
from agentlib.messages import assistant, tool_result, tool_use, user
from coursekit import workloads
from standin import compaction

EDIT_BETA = ["compact-2026-01-12"]
NOW_BETA = ["compact-2026-09-04"]
CLEAR_BETA = ["context-management-2025-06-27"]


def compact_edit(**kw) -> dict:
    return {"edits": [{"type": "compact_20260112",
                       "trigger": {"type": "input_tokens", "value": 50_000}, **kw}]}


def count(c, messages, **kw) -> int:
    return c.beta.messages.count_tokens(model=MODEL, messages=messages, betas=EDIT_BETA,
                                        **kw).input_tokens


def test_a_null_compaction_block_drops_nothing():
    c = connect()
    early = [user(TASK), assistant("Reading it now."), user("Go on.")]
    failed = early + [assistant({"type": "compaction", "content": None}), user("Continue.")]
    done = early + [assistant({"type": "compaction", "content": "Summary: nothing yet."}),
                    user("Continue.")]
    assert count(c, failed) == count(c, early + failed[-2:]) > count(c, done)
    assert count(c, done) == count(c, done[-2:])  # everything before a real block is dropped
    e = refused(lambda: count(c, early + [assistant({"type": "compaction", "content": ""}),
                                          user("Continue.")]))
    assert message(e) == "messages.3.content.0.content: Empty string content is not allowed"


def test_the_server_summary_is_bounded_and_wrapped():
    """A 60,000-token history used to give a 60,000-token summary."""
    c = connect()
    pasted = "\n".join(f"2026-03-14T09:{i % 60:02d}:00Z INFO worker {i} heartbeat ok"
                       for i in range(4_500))
    history = [user(pasted), assistant("Noted: a long log."), user(TASK)]
    assert tokens.count(history) > 60_000
    r = ask(c, history, beta=True, betas=EDIT_BETA, context_management=compact_edit())
    block = r.content[0]
    assert block.type == "compaction"
    assert block.content.startswith("<summary>\n") and block.content.endswith("\n</summary>")
    out = r.usage.iterations[0].output_tokens
    assert out == tokens.count({"type": "compaction", "content": block.content})
    assert out <= compaction.SUMMARY_MAX + 64
    own = ask(c, history, beta=True, betas=EDIT_BETA,
              context_management=compact_edit(instructions="List the goal and the facts."))
    assert not own.content[0].content.startswith("<summary>")  # instructions replace it


def test_iterations_come_with_the_compaction_beta_even_without_compaction():
    r = ask(connect(), beta=True, betas=EDIT_BETA, context_management=compact_edit())
    assert [i.type for i in r.usage.iterations] == ["message"]
    assert r.usage.iterations[0].input_tokens == r.usage.input_tokens


def test_count_tokens_applies_edits_and_reports_the_original():
    w = workloads.audit(8)
    uses = [tool_use(f"toolu_{i}", "read_file", {"path": p})
            for i, p in enumerate(w.workspace.list_files().split("\n")[:5])]
    history = [user(w.task)]
    for u in uses:
        history += [assistant(u), user(tool_result(u["id"], w.workspace.read_file(
            u["input"]["path"].split("  (")[0])))]
    c = connect()
    edit = {"edits": [{"type": "clear_tool_uses_20250919",
                       "trigger": {"type": "input_tokens", "value": 100},
                       "keep": {"type": "tool_uses", "value": 1}}]}
    counted = c.beta.messages.count_tokens(model=MODEL, messages=history, betas=CLEAR_BETA,
                                           tools=w.tools, context_management=edit)
    plain = c.messages.count_tokens(model=MODEL, messages=history, tools=w.tools)
    assert counted.context_management.original_input_tokens == plain.input_tokens
    created = c.beta.messages.create(model=MODEL, max_tokens=256, messages=history,
                                     betas=CLEAR_BETA, tools=w.tools, context_management=edit)
    assert counted.input_tokens == created.usage.input_tokens < plain.input_tokens
    assert counted.input_tokens == plain.input_tokens - \
        created.context_management.applied_edits[0].cleared_input_tokens


def test_on_demand_compaction():
    c = connect()
    history = [user(TASK), assistant("I read incident.log: a hypothesis, BAD-DEPLOY."),
               user("Go on.")]
    r = ask(c, history, beta=True, betas=NOW_BETA, compaction={"type": "summarize"})
    assert r.stop_reason == "compaction" and [b.type for b in r.content] == ["compaction"]
    block = r.content[0].to_dict()
    assert block["signature"] and block["content"].startswith("<summary>")
    later = [{"role": "assistant", "content": [block]}, user("Go on.")]
    assert ask(c, later, beta=True, betas=NOW_BETA).stop_reason == "tool_use"
    forged = [{"role": "assistant", "content": [{**block, "content": "<summary>x</summary>"}]},
              user("Go on.")]
    e = refused(lambda: ask(c, forged, beta=True, betas=NOW_BETA))
    assert e.body["error"]["details"] == {"error_code": "compaction_signature_invalid"}
    e = refused(lambda: ask(c, history, beta=True, betas=NOW_BETA + CLEAR_BETA,
                            compaction={"type": "summarize"},
                            context_management={"edits": []}))
    assert message(e) == "compaction: cannot be combined with `context_management`"
    finished = history + [assistant("The root cause is BAD-DEPLOY.")]  # not a prefill here
    assert ask(c, finished, model="claude-sonnet-5-5", beta=True, betas=NOW_BETA,
               compaction={"type": "summarize"}).stop_reason == "compaction"
    e = refused(lambda: ask(c, [later[0]], beta=True, betas=NOW_BETA,
                            compaction={"type": "summarize"}))
    assert e.body["error"]["details"] == {"error_code": "compaction_nothing_to_summarize"}
    e = refused(lambda: ask(c, [user("Hi."), *later], beta=True, betas=NOW_BETA))
    assert e.body["error"]["details"] == {"error_code": "compaction_block_misplaced"}
    e = refused(lambda: ask(c, [{"role": "assistant", "content": [block, block]}, user("Go on.")],
                            beta=True, betas=NOW_BETA))
    assert message(e).endswith("a request carries one `compaction` block: send only the newest")


def test_the_runner_compacts_before_the_next_turn():
    """`runner.compact_before_next_turn()` sends a top-level `compaction` request."""
    work = workloads.needle(40)
    c = connect()
    runner = c.beta.messages.tool_runner(
        model=MODEL, max_tokens=1024, betas=NOW_BETA, messages=[user(work.task)],
        tools=[beta_tool(work.workspace.read_file)])
    replies = []
    for reply in runner:
        replies.append(reply)
        if len(replies) == 1:
            runner.compact_before_next_turn()
    assert "compaction" in [r.stop_reason for r in replies]
    final = replies[-1]
    assert final.stop_reason == "end_turn"
    assert work.score("\n".join(b.text for b in final.content if b.type == "text")).success
