"""Prompt caching through the real SDK: four breakpoints at most, top-level automatic
caching, TTLs and the `usage.cache_creation` breakdown, per-model minimums, the 20-position
lookback (docs/api-facts.md section 5)."""

from apitools import MODEL, TASK, ask, connect, message, no_network, refused  # noqa: F401

from agentlib.messages import user

PART = "You read incident logs carefully and note each finding. " * 120  # ~1,320 tokens


def system(*ttls: str | None) -> list[dict]:
    """System blocks, one per ttl; None leaves a block unmarked."""
    return [{"type": "text", "text": f"Part {i}. {PART}",
             **({"cache_control": {"type": "ephemeral", **({"ttl": t} if t else {})}}
                if t != "none" else {})} for i, t in enumerate(ttls)]


def test_a_fifth_breakpoint_is_refused():
    e = refused(lambda: ask(connect(), system=system(*["5m"] * 5)))
    assert message(e) == "A maximum of 4 blocks with cache_control may be provided. Found 5."
    e = refused(lambda: ask(connect(), system=system(*["5m"] * 4),
                            cache_control={"type": "ephemeral"}))
    assert message(e) == "A maximum of 4 blocks with cache_control may be provided. Found 5."
    assert ask(connect(), system=system(*["5m"] * 4)).stop_reason  # four are fine


def test_top_level_cache_control_marks_the_last_block():
    c = connect()
    first = ask(c, system=system("none", "none"), cache_control={"type": "ephemeral"})
    assert first.usage.cache_creation_input_tokens == first.usage.cache_creation.ephemeral_5m_input_tokens > 1024
    assert first.usage.input_tokens == 4  # all written but the few tokens the API never caches
    again = ask(c, system=system("none", "none"), cache_control={"type": "ephemeral"})
    assert again.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    # same TTL as an explicit marker on that block: one breakpoint, not two
    assert ask(c, [user({"type": "text", "text": TASK, "cache_control": {"type": "ephemeral"}})],
               system=system("5m", "5m", "5m"), cache_control={"type": "ephemeral"}).stop_reason
    e = refused(lambda: ask(c, [user({"type": "text", "text": TASK,
                                      "cache_control": {"type": "ephemeral", "ttl": "1h"}})],
                            cache_control={"type": "ephemeral"}))
    assert message(e).startswith("cache_control: the top-level ttl '5m' differs")


def test_ttl_shows_in_the_cache_creation_breakdown():
    c = connect()
    r = ask(c, system=system("1h", "5m"))
    breakdown = r.usage.cache_creation
    assert breakdown.ephemeral_1h_input_tokens > 0 and breakdown.ephemeral_5m_input_tokens > 0
    assert breakdown.ephemeral_1h_input_tokens + breakdown.ephemeral_5m_input_tokens == \
        r.usage.cache_creation_input_tokens
    e = refused(lambda: ask(connect(), system=system("5m", "1h")))
    assert message(e).startswith("cache_control: a breakpoint with ttl '1h' must come before")
    e = refused(lambda: ask(connect(), system=system("2h")))
    assert message(e) == "system.0.cache_control.ttl: Input should be '5m' or '1h'"


def test_each_model_has_its_minimum_cacheable_prefix():
    blocks = system("5m", "none")[:1] + [{"type": "text", "text": PART,
                                          "cache_control": {"type": "ephemeral"}}]
    course = ask(connect(), system=blocks)
    haiku = ask(connect(), system=blocks, model="claude-haiku-4-5")  # 4,096 minimum
    assert 1024 < course.usage.cache_creation_input_tokens < 4096
    assert haiku.usage.cache_creation_input_tokens == 0 and haiku.usage.cache_read_input_tokens == 0


def test_thinking_blocks_cannot_carry_cache_control():
    c = connect()
    first = ask(c, thinking={"type": "adaptive"})
    thought = {**first.content[0].to_dict(), "cache_control": {"type": "ephemeral"}}
    history = [user(TASK), {"role": "assistant", "content": [thought]}, user("Go on.")]
    e = refused(lambda: ask(c, history, thinking={"type": "adaptive"}))
    assert message(e) == "messages.1.content.0.cache_control: Extra inputs are not permitted"


def test_the_course_model_counts_with_1024_minimum():
    assert MODEL == "course-model-1"
    short = [{"type": "text", "text": PART[:3000], "cache_control": {"type": "ephemeral"}}]
    assert ask(connect(), system=short).usage.cache_creation_input_tokens == 0  # < 1,024


def blocks_of(n: int, start: int = 0, run: str = "") -> list[dict]:
    """`n` short text blocks, numbered from `start` (`run` keeps two tests' prefixes apart)."""
    return [{"type": "text", "text": f"Note {run}{i}: the deploy at 09:{i % 60:02d} passed."}
            for i in range(start, start + n)]


def marked(blocks: list[dict]) -> list[dict]:
    """The same blocks, the last one a breakpoint."""
    return blocks[:-1] + [{**blocks[-1], "cache_control": {"type": "ephemeral"}}]


def test_the_lookback_checks_20_positions_counting_the_breakpoint():
    # the docs' example: an entry at block 15 is one position outside a window at block 35
    for added, hit in ((19, True), (20, False)):
        c = connect()
        first = ask(c, [user(*marked(blocks_of(10, run=added)))], system=system("none"))
        assert first.usage.cache_creation_input_tokens > 0
        grown = ask(c, [user(*marked(blocks_of(10 + added, run=added)))], system=system("none"))
        read = grown.usage.cache_read_input_tokens
        assert (read >= first.usage.cache_creation_input_tokens) if hit else read == 0, (added, read)


def test_a_run_of_tool_calls_or_results_is_one_position():
    calls = [{"type": "tool_use", "id": f"toolu_{i:02d}", "name": "read_file",
              "input": {"path": f"svc{i}.cfg"}} for i in range(25)]
    results = [{"type": "tool_result", "tool_use_id": f"toolu_{i:02d}", "content": "ok"}
               for i in range(25)]
    c = connect()
    opening = blocks_of(3)
    first = ask(c, [user(*marked(opening))], system=system("none"))
    grown = ask(c, [user(*opening), {"role": "assistant", "content": calls},
                    user(*results, *marked(blocks_of(1, 3)))], system=system("none"))
    # 50 blocks after the entry, but 3 positions: the entry is found
    assert grown.usage.cache_read_input_tokens >= first.usage.cache_creation_input_tokens > 0
