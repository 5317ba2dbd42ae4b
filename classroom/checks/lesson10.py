"""Checks for the capstone (exercise 10): ex10.my_agent, the learner's own agent.

The learner writes `my_agent(client, task, notes_dir)`, which returns the setup of their
agent for one task: a dict with keys among context, toolbox, system, extra_tools, extra,
cache and max_tokens (classroom/harness.py, `run_setup`). The checks run it on every task
family of the course (the audit, the needle, the constraints task, lesson 9's ops
catalog), on both model behaviours of the benchmark (course-model-1, notes in plain text;
claude-sonnet-5-5's semantics, notes in thinking bound to the conversation), each in a
WINDOW-token window, each on a fresh client whose model counts and bills every call at the
default model's prices with the prompt cache on, and refuses the requests after a run has
spent its CAP. A run solves its task when its answer scores full marks within the cap.

    score = sum over the runs solved within the cap of
            100 + 10 x (1 - dollars / CAP) + (1 - peak / WINDOW)

Success first (a run solved is worth more than any saving), then dollars, then the peak
window. In a learner's kernel (`check()`) the tasks are the public ones (SEEDS) and the
report shows append-only and the course's own pipeline beside the learner's, with the
frontier; the class grader draws the tasks' seeds and sizes from its secret, and withholds
the course's pipelines (coursekit.bench's strategies): a setup that delegates to them earns
nothing.
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass
from functools import lru_cache

from classroom.grading import (
    in_learner_process,
    is_drawn,
    own_work,
    portable,
    record,
    register,
    seed,
)
from classroom.harness import SETUP_KEYS, run_setup, setup_keys

# the course's own pipelines (the benchmark's strategies): not in the grader's sandbox
own_work("ex10", "coursekit.bench:strategies", "coursekit.bench:measure")

FAMILIES = ("audit", "needle", "constraints", "ops")
MODELS = ("course-model-1", "claude-sonnet-5-5")  # coursekit.bench.MODELS
WINDOW = 8_000  # every task's window: append-only overflows on three of the four
CAP = 0.08  # dollars a run may spend; the requests after it are refused
MAX_STEPS = 80  # requests per run
MAX_TOKENS = 1024  # the default; a setup's max_tokens may change it
SEEDS = {"audit": 101, "needle": 102, "constraints": 103, "ops": 104}  # the public tasks
SOLVE_POINTS, DOLLAR_POINTS, PEAK_POINTS = 100, 10, 1
FORMULA = ("score = sum over the runs solved within the cap of {a} + {b} x (1 - dollars / "
           "${c:.2f}) + {d} x (1 - peak / {w:,})")
"""The score's formula, filled in by `formula()` (a template of coursekit.i18n's catalog)."""
HINT = ("read the task's name (task.name) and the model (agentlib.models.model_name(client)): "
        "cap and clear the reads of the audit and the needle (on a model that binds thinking, "
        "let the API clear: the client's edits drop the notes), defer the ops catalog behind "
        "a tool search, and keep the cache's breakpoints after the stable part")


def formula() -> str:
    """The score's formula with its numbers, in the learner's language."""
    from coursekit.i18n import say

    return say(FORMULA, a=SOLVE_POINTS, b=DOLLAR_POINTS, c=CAP, d=PEAK_POINTS, w=WINDOW)


def family_of(task_name: str) -> str:
    """The family of a workload's name ("ops-incident" -> "ops")."""
    return task_name.split("-")[0]


def task_args(family: str) -> tuple[tuple, dict]:
    """(args, kwargs) of the task of `family`: the public seed in a learner's kernel, one
    drawn from the grader's secret there (its size drawn from it too)."""
    s = seed(SEEDS[family])
    if family == "audit":
        return (10 + s % 7,), {"seed": s}  # 10 to 16 files
    if family == "needle":
        return (300 + s % 301,), {"seed": s}  # 300 to 600 lines
    if family == "constraints":
        return (6 + s % 5,), {"seed": s}  # 6 to 10 lookups
    return (), {"seed": s}


def make_task(family: str, root: str, rebuild: bool = True):
    """The workload of `family` (files under `root`); `rebuild`: made so that the grader
    rebuilds it in the learner's process (`portable`)."""
    from coursekit import workloads

    args, kwargs = task_args(family)
    if family in ("audit", "needle"):
        kwargs = {**kwargs, "root": root}
    fn = getattr(workloads, family)
    return portable(fn, *args, **kwargs) if rebuild else fn(*args, **kwargs)


# ---------------------------------------------------------------- one run, measured


@dataclass
class Trial:
    """One run of a setup on one task and model. Everything but `error` and `stopped` is
    counted by the model the check owns, not reported by the learner's process."""

    family: str
    model: str
    error: str | None = None
    stopped: str = ""
    calls: int = 0  # every successful create: the agent's and the summaries'
    input_tokens: int = 0  # all of their input tokens (cached or not)
    cost: float = 0.0  # their dollars at the default model's prices, cache on
    peak: int = 0  # the largest agent request's input tokens
    over: bool = False  # the run spent more than CAP (its later requests were refused)
    refused: str = ""  # the model's first refusal, when one came
    success: bool = False  # a full-marks answer within the cap
    detail: str = ""  # the workload's score of the answer

    @property
    def points(self) -> float:
        """This run's part of the score (0 unless solved within the cap)."""
        if not self.success:
            return 0.0
        return (SOLVE_POINTS + DOLLAR_POINTS * (1 - min(self.cost, CAP) / CAP)
                + PEAK_POINTS * (1 - min(self.peak, WINDOW) / WINDOW))


def score(trials) -> float:
    """The capstone's score of a setup's runs (FORMULA), rounded to 0.1."""
    return round(sum(t.points for t in trials), 1)


def _usage_cost(usage: dict) -> float:
    """Dollars of one response's usage at the default model's prices (cache on)."""
    from agentlib.models import DEFAULT_MODEL, prices

    p = prices(DEFAULT_MODEL)
    made = usage.get("cache_creation") or {}
    hour = made.get("ephemeral_1h_input_tokens", 0)
    total = (usage["input_tokens"] * p.input + usage["cache_read_input_tokens"] * p.cache_read
             + (usage["cache_creation_input_tokens"] - hour) * p.cache_write_5m
             + hour * p.cache_write_1h + usage["output_tokens"] * p.output)
    total += sum(i["input_tokens"] * p.input + i["output_tokens"] * p.output
                 for i in usage.get("iterations", []) if i["type"] == "compaction")
    return total / 1e6


CAP_REFUSAL = ("the capstone's cost cap: this run has spent ${spent:.4f}, over its ${cap:.2f}; "
               "no more requests for this task (the grader's cap, not an API limit)")


def counting_client(model: str):
    """A fresh offline client in WINDOW whose model counts, bills and caps every call."""
    from coursekit import connect
    from standin.errors import APIError

    client = connect(offline=True, context_window=WINDOW, model=model)
    course_model = client.course_model
    tally: dict = {"calls": 0, "input": 0, "cost": 0.0, "agent": [], "refused": "",
                   "last": None}
    create = course_model.create

    def counted(request, betas, key=""):
        if tally["cost"] > CAP:
            refusal = CAP_REFUSAL.format(spent=tally["cost"], cap=CAP)
            tally["refused"] = tally["refused"] or refusal
            raise APIError(403, refusal)
        try:
            out = create(request, betas, key)
        except Exception as e:
            tally["refused"] = tally["refused"] or " ".join(str(e).split())[:200]
            raise
        usage = out["usage"]
        sent = (usage["input_tokens"] + usage["cache_creation_input_tokens"]
                + usage["cache_read_input_tokens"])
        tally["calls"] += 1
        tally["cost"] += _usage_cost(usage)
        tally["input"] += sent + sum(i["input_tokens"] for i in usage.get("iterations", [])
                                     if i["type"] == "compaction")
        if request.get("tools"):
            tally["agent"].append(sent)
            tally["last"] = out
        return out

    course_model.create = counted
    return client, tally


def trial(fn, family: str, model: str, rebuild: bool = True) -> Trial:
    """Run `fn`'s setup once on `family`'s task and `model`; judged by the check's model."""
    client, tally = counting_client(model)
    t = Trial(family, model)
    with tempfile.TemporaryDirectory(prefix="agentlib-ex10-") as root:
        work = make_task(family, f"{root}/workspace", rebuild)
        outcome = in_learner_process(run_setup, fn, client, work, f"{root}/notes", MAX_STEPS,
                                     MAX_TOKENS)
    if not isinstance(outcome, dict):
        outcome = {"error": f"the run reported {type(outcome).__name__}, not a dict"}
    t.error, t.stopped = outcome.get("error"), str(outcome.get("stopped", ""))[:300]
    t.calls, t.input_tokens, t.cost = tally["calls"], tally["input"], round(tally["cost"], 6)
    t.peak, t.refused = max(tally["agent"], default=0), tally["refused"]
    t.over = tally["cost"] > CAP
    last = tally["last"]
    answer = None
    if last is not None and last.get("stop_reason") not in ("tool_use",
                                                            "model_context_window_exceeded"):
        answer = "\n".join(b.get("text", "") for b in last.get("content", [])
                           if b.get("type") == "text")
    if answer is not None and t.error is None:
        s = work.score(answer)
        t.success, t.detail = bool(s.success) and not t.over, str(s.detail)[:200]
    return t


def run_all(fn, rebuild: bool = True) -> list[Trial]:
    """`fn`'s setup on every family and model, in that order."""
    return [trial(fn, family, model, rebuild) for family in FAMILIES for model in MODELS]


# ---------------------------------------------------------------- the course's references


def append_only(client, task, notes_dir):
    """The first lesson's agent: every result kept, the cache on."""
    return {}


def course_pipeline(client, task, notes_dir):
    """The course's own setup for each task (the benchmark's pipelines, coursekit.bench):
    lesson 7's cache-aware pipeline on the course model, the API's clearing with
    breakpoints on a model that binds thinking (lesson 7b), the ops catalog deferred behind
    the API's regex tool search (lesson 9), append-only for the short constraints task."""
    from agentlib.models import model_name
    from agentlib.tools import Toolbox
    from coursekit import bench
    from coursekit.opsworkload import SEARCH_TOOLS

    family = family_of(task.name)
    if family == "constraints":
        return {}
    if family == "ops":
        box, original = Toolbox(), task.toolbox
        for d in task.tools:
            box.add_definition({**d, "defer_loading": True},
                               lambda args, name=d["name"]: original.run(
                                   {"type": "tool_use", "id": "toolu_ref", "name": name,
                                    "input": args})["content"])
        box.add_definition(dict(SEARCH_TOOLS["regex"]), lambda args: None)
        return {"toolbox": box}
    name = bench.BEST if model_name(client) == bench.MODELS[0] else bench.LIVE_BEST
    setup = bench.strategies(bench.SIZES["small"], client, notes_dir)[name]
    return {"context": setup.context, "toolbox": setup.wrap(task) if setup.wrap else None,
            "system": setup.system, "extra": setup.extra, "extra_tools": setup.extra_tools,
            "cache": setup.cache}


@lru_cache(maxsize=4)
def references(secret: int | None = None) -> dict[str, list[Trial]]:
    """Append-only's and the course pipeline's runs on the tasks (the public ones, or those
    of `secret`, the class grader's), computed here, never in a learner's process."""
    from classroom import grading

    before = grading._SECRET
    grading.use_secret(secret)
    try:
        return {"append-only": run_all(append_only, rebuild=False),
                "course's best": run_all(course_pipeline, rebuild=False)}
    finally:
        grading.use_secret(before)


# ---------------------------------------------------------------- the report


def summary(trials) -> dict:
    """A setup's point: runs solved, dollars, the largest peak, input tokens, its score."""
    return {"solved": sum(t.success for t in trials), "runs": len(trials),
            "dollars": round(sum(t.cost for t in trials), 4),
            "peak": max((t.peak for t in trials), default=0),
            "input": sum(t.input_tokens for t in trials), "score": score(trials)}


def _say(text: str, **values) -> str:
    from coursekit.i18n import say

    return say(text, **values)


def _cell(t: Trial) -> list:
    ok = "yes" if t.success else ("over the cap" if t.over else
                                  "error" if t.error else "no")
    return [ok, f"${t.cost:.4f}", t.peak, t.input_tokens]


def report(mine: list[Trial], refs: dict[str, list[Trial]]) -> str:
    """The table check() prints: each run beside append-only's and the course's, then the
    scores."""
    from coursekit.table import table

    rows = []
    for i, t in enumerate(mine):
        rows.append([t.family, t.model, "you", *_cell(t)])
        for label, trials in refs.items():
            rows.append(["", "", label, *_cell(trials[i])])
    lines = [_say("capstone: {n} runs ({f} tasks x {m} models), a window of {w:,} tokens, "
                  "a cap of ${c:.2f} a run", n=len(mine), f=len(FAMILIES), m=len(MODELS), w=WINDOW,
                  c=CAP), "",
             table(rows, ["task", "model", "setup", "solved", "dollars", "peak",
                          "input tokens"], left=3), ""]
    for label, trials in (("you", mine), *refs.items()):
        s = summary(trials)
        lines.append(_say("{who:14} score {s:6.1f}: {k} of {n} solved, ${d:.4f}, peak {p:,}",
                          who=_say(label), s=s["score"], k=s["solved"], n=s["runs"],
                          d=s["dollars"], p=s["peak"]))
    lines.append(formula())
    return "\n".join(lines)


def plot(mine: list[Trial], refs: dict[str, list[Trial]]) -> None:
    """The frontier: runs solved against dollars, the learner's point and the references."""
    import matplotlib.pyplot as plt

    from coursekit.viz.frontier import plot_capstone

    points = [{"label": "you", "kind": "student", **summary(mine)}]
    points += [{"label": label, "kind": "reference", **summary(trials)}
               for label, trials in refs.items()]
    plot_capstone(points, runs=len(mine), cap=CAP * len(mine))
    plt.show()


# ---------------------------------------------------------------- the checks

_LAST: dict = {}


def _trials(ns: dict, fresh: bool = False) -> list[Trial]:
    fn = ns["my_agent"]
    if fresh or _LAST.get("fn") is not fn:
        _LAST.clear()
        _LAST.update(fn=fn, trials=run_all(fn))
    return _LAST["trials"]


def _line(t: Trial) -> str:
    """One run's failure in a line, in the learner's language (each line on its own: the
    check joins several)."""
    from classroom.grading import translate
    from coursekit.i18n import lang

    line = _english_line(t)
    return translate(line) if lang() == "ko" else line


def _english_line(t: Trial) -> str:
    if t.error:
        return f"{t.family} on {t.model}, no run: {t.error}"
    if t.over:
        return f"{t.family} on {t.model}: spent ${t.cost:.4f}, over the ${CAP:.2f} cap"
    ended = t.stopped.split(":")[0] or "no answer"
    if ended == "error" and t.refused:  # the API's own words: why the run stopped
        ended = t.refused[:120]
    return (f"{t.family} on {t.model}: {ended} after {t.calls} calls, "
            f"{t.detail or 'no answer to score'}, peak {t.peak:,}, ${t.cost:.4f}")


@register("ex10.my_agent", "returns a setup run_agent can use, for every task and model",
          hint=f"return a dict with keys among {', '.join(SETUP_KEYS)}", needs=("my_agent",),
          seconds=240)
def _shape(ns: dict) -> None:
    trials = _trials(ns, fresh=True)
    record(score=score(trials), runs=[{**asdict(t), "points": round(t.points, 2)}
                                      for t in trials])
    if not is_drawn():  # in a learner's kernel: the report, beside the references
        refs = references()
        print(report(trials, refs))
        plot(trials, refs)
    failed = [t for t in trials if t.error]
    assert not failed, "; ".join(_line(t) for t in failed[:2])


def _built(ns: dict, family: str) -> None:
    """Build the learner's setup for `family`'s task once more, without running it: what
    their function runs is seen by this check too (the course's pipelines are not theirs)."""
    client, _ = counting_client(MODELS[0])
    with tempfile.TemporaryDirectory(prefix="agentlib-ex10-") as root:
        in_learner_process(setup_keys, ns["my_agent"], client,
                           make_task(family, f"{root}/workspace"), f"{root}/notes")


def _family(name: str):
    def check(ns: dict) -> None:
        trials = [t for t in _trials(ns) if t.family == name]
        if not any(t.error for t in trials):
            _built(ns, name)
        missed = [t for t in trials if not t.success]
        assert not missed, "; ".join(_line(t) for t in missed)
    return check


for _name in FAMILIES:
    register("ex10.my_agent", f"solves the {_name} task on both models within the cap",
             hint=HINT, needs=("my_agent",), seconds=240)(_family(_name))
