#!/usr/bin/env python3
"""Writes the generated files of examples/dataset from the task files in this folder.

For each task: tests.patch and gold.patch (edits applied to a clone of the example repository, then `git diff`),
and for each attempt: its steps replayed for real in a fresh clone (commands run, files edited), the final diff as
patch.diff, the same story rendered as a trajectory in the attempt's format, and attempt.json. Finally
examples/ground-truth.json from the hand-written truth in the task files and the spec-test map in task.json.

Hand-written, not generated: specweave.json, GUIDELINES.md, GROUND_TRUTH.md, each task's task.json and request.md.
Run from anywhere: python3 examples/authoring/make_dataset.py  (needs git and python3 with pytest; no network).
Output is deterministic: fixed clocks, ids derived from names, token counts from text lengths.
"""
import difflib
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from datetime import datetime, timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # keep examples/authoring free of __pycache__
from story import Bash, Create, Replace, Submit, View  # noqa: E402

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent
DATASET = EXAMPLES / "dataset"
REPO = EXAMPLES / "repos" / "durations"
WORKDIR = "/repo"

sys.path.insert(0, str(HERE))
import task_format_precision  # noqa: E402
import task_fractional_units  # noqa: E402
import task_total_command  # noqa: E402

TASKS = [task_format_precision.TASK, task_total_command.TASK, task_fractional_units.TASK]

# USD per million tokens (input, output), list prices when the runs are dated.
PRICES = {
    "gpt-4o-2024-08-06": (2.5, 10.0),
    "gpt-5-mini-2025-08-07": (0.25, 2.0),
    "gpt-5-2025-08-07": (1.25, 10.0),
    "gpt-4.1-mini-2025-04-14": (0.4, 1.6),
    "claude-3-5-sonnet-20241022": (3.0, 15.0),
    "claude-3-7-sonnet-20250219": (3.0, 15.0),
    "claude-sonnet-4-5-20250929": (3.0, 15.0),
}

TRAJECTORY_FILES = {
    "swe-agent": "trajectory.traj",
    "mini-swe-agent": "trajectory.traj.json",
    "openhands-events": "trajectory.json",
    "openhands-eval": "output.jsonl",
    "claude-code": "session.jsonl",
}

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_AUTHOR_NAME": "agent",
    "GIT_AUTHOR_EMAIL": "agent@example.invalid",
    "GIT_COMMITTER_NAME": "agent",
    "GIT_COMMITTER_EMAIL": "agent@example.invalid",
}


# ---- small helpers -----------------------------------------------------------------------------------------------

def h(*parts, n=8):
    """A stable number from names, for ids, durations and latencies."""
    return int(hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()[: n * 2], 16)


def hexid(*parts, length=24):
    return hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()[:length]


def b62(*parts, length=24):
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    n = h(*parts, n=24)
    out = ""
    for _ in range(length):
        n, r = divmod(n, 62)
        out += alphabet[r]
    return out


def stable_uuid(*parts):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "specweave-example:" + "/".join(map(str, parts))))


def tokens(text):
    return max(1, math.ceil(len(text) / 3.6))


def git(cwd, *args, check=True):
    env = dict(os.environ, **GIT_ENV)
    proc = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}:\n{proc.stderr}")
    return proc.stdout


def base_commit():
    shas = {json.loads((DATASET / "tasks" / t.id / "task.json").read_text())["repo"]["baseCommit"] for t in TASKS}
    if len(shas) != 1:
        raise SystemExit(f"tasks disagree on the base commit: {shas}")
    return shas.pop()


def fresh_clone(tmp, name, when="2025-01-01T00:00:00"):
    dest = Path(tmp) / name / "repo"
    dest.parent.mkdir()
    git(tmp, "clone", "-q", str(REPO), str(dest))
    git(dest, "checkout", "-q", BASE)
    # `ls -la` in a story shows mtimes: make them the run's, not the moment the generator ran.
    stamp = (datetime.fromisoformat(when) - timedelta(minutes=3)).timestamp()
    for p in [dest.parent, *dest.rglob("*"), dest]:
        os.utime(p, (stamp, stamp), follow_symlinks=False)
    return dest


def staged_diff(work):
    git(work, "add", "-A")
    return git(work, "-c", "core.quotepath=false", "diff", "--cached", "--no-color", "--no-ext-diff")


def apply_edit(work, edit):
    path = work / edit.path
    if isinstance(edit, Create):
        before = path.read_text() if path.exists() else None
        path.write_text(edit.text)
        return before, edit.text
    before = path.read_text()
    if before.count(edit.old) != 1:
        raise SystemExit(f"{edit.path}: the text to replace occurs {before.count(edit.old)} times, not once:\n"
                         f"{edit.old}")
    after = before.replace(edit.old, edit.new)
    path.write_text(after)
    return before, after


def numbered(text, start=1, arrow=False):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    sep = "→" if arrow else "\t"
    return "\n".join(f"{i:6}{sep}{line}" for i, line in enumerate(lines, start)) + "\n"


def snippet(after, new_text, arrow=False):
    """The lines around an edit, numbered, as editors show them after a replacement."""
    idx = after.find(new_text) if new_text else 0
    first = after[:idx].count("\n")
    last = first + new_text.count("\n")
    lines = after.split("\n")
    lo, hi = max(0, first - 4), min(len(lines), last + 4)
    return numbered("\n".join(lines[lo:hi]), lo + 1, arrow)


def normalize(text, work):
    text = text.replace(str(work), WORKDIR)
    # pytest's timings change on every run; keep the output stable so regenerating gives the same bytes.
    key = h(re.sub(r" in \d+\.\d+s", "", text))
    return re.sub(r" in \d+\.\d+s", lambda m: f" in {0.2 + (key % 90) / 100:.2f}s", text)


def run_bash(work, command):
    env = dict(os.environ, **GIT_ENV, PYTHONDONTWRITEBYTECODE="1", COLUMNS="100", TERM="dumb", TZ="UTC",
               PAGER="cat", LC_ALL="C.UTF-8")
    env.pop("PYTEST_ADDOPTS", None)
    # One stream, as a terminal shows it: stderr interleaved with stdout.
    proc = subprocess.run(["bash", "-c", command.replace(WORKDIR, str(work))], cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, timeout=120)
    return normalize(proc.stdout, work), proc.returncode


# ---- replaying a story -----------------------------------------------------------------------------------------

def replay(attempt, work):
    """Runs the attempt's actions; returns one event per step with what really happened."""
    events = []
    for step in attempt.steps:
        a = step.action
        ev = {"thought": step.thought, "action": a}
        if isinstance(a, View):
            ev["content"] = (work / a.path).read_text()
        elif isinstance(a, Bash):
            ev["output"], ev["exit_code"] = run_bash(work, a.command)
        elif isinstance(a, (Replace, Create)) and attempt.format == "mini-swe-agent":
            # mini-swe-agent only has a shell: run the command the trajectory shows and check what it did.
            path = work / a.path
            ev["before"] = path.read_text() if path.exists() else None
            ev["output"], ev["exit_code"] = run_bash(work, mini_command(a))
            ev["after"] = path.read_text()
            expected = a.text if isinstance(a, Create) else (ev["before"] or "").replace(a.old, a.new)
            if ev["exit_code"] != 0 or ev["after"] != expected:
                raise SystemExit(f"{attempt.id}: the shell edit of {a.path} did not do what the story says")
        elif isinstance(a, (Replace, Create)):
            ev["before"], ev["after"] = apply_edit(work, a)
        elif isinstance(a, Submit):
            if attempt.format == "mini-swe-agent":
                out, _ = run_bash(work, "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached")
                ev["submission"] = out.split("\n", 1)[1]
            else:
                ev["submission"] = staged_diff(work)
        events.append(ev)
    return events


def file_diff(path, before, after):
    return "".join(difflib.unified_diff((before or "").splitlines(True), after.splitlines(True),
                                        f"{WORKDIR}/{path}", f"{WORKDIR}/{path}"))


class Clock:
    def __init__(self, attempt):
        self.t = datetime.fromisoformat(attempt.start)
        self.key = attempt.id
        self.n = 0

    def tick(self, lo, hi):
        self.n += 1
        self.t += timedelta(milliseconds=lo * 1000 + h(self.key, self.n) % int((hi - lo) * 1000))
        return self.t

    def iso(self, lo=0.05, hi=0.4, z=False):
        t = self.tick(lo, hi)
        s = t.isoformat(timespec="milliseconds" if z else "microseconds")
        return s + "Z" if z else s


class Meter:
    """Deterministic token and cost accounting: prompt = everything sent so far, completion = what was written."""

    def __init__(self, model):
        self.model = model
        self.context = 0
        self.calls = 0
        self.prompt = 0
        self.completion = 0
        self.cost = 0.0

    def add_context(self, text):
        self.context += tokens(text)

    def call(self, written):
        p, c = self.context, tokens(written) + 12
        self.calls += 1
        self.prompt += p
        self.completion += c
        pin, pout = PRICES[self.model]
        cost = (p * pin + c * pout) / 1e6
        self.cost += cost
        self.context += c
        return p, c, cost


# ---- SWE-agent 1.x (function calling) ----------------------------------------------------------------------------

SWE_SYSTEM = "You are a helpful assistant that can interact with a computer to solve tasks."


def swe_instance(request):
    return (f"<uploaded_files>\n{WORKDIR}\n</uploaded_files>\nI've uploaded a python code repository in the directory "
            f"{WORKDIR}. Consider the following PR description:\n\n<pr_description>\n{request}</pr_description>\n\n"
            "Can you help me implement the necessary changes to the repository so that the requirements specified in "
            "the <pr_description> are met?\nI've already taken care of all changes to any of the test files described "
            "in the <pr_description>. This means you DON'T have to modify the testing logic or any of the tests in any "
            f"way!\nYour task is to make the minimal changes to non-tests files in the {WORKDIR} directory to ensure "
            "the <pr_description> is satisfied.\nFollow these steps to resolve the issue:\n1. As a first step, it might "
            "be a good idea to find and read code relevant to the <pr_description>\n2. Create a script to reproduce the "
            "error and execute it with `python <filename.py>` using the bash tool, to confirm the error\n3. Edit the "
            "sourcecode of the repo to resolve the issue\n4. Rerun your reproduce script and confirm that the error is "
            "fixed!\n5. Think about edgecases and make sure your fix handles them as well\nYour thinking should be "
            "thorough and so it's fine if it's very long.")


def shq(s):
    return "'" + s.replace("'", "'\"'\"'") + "'"


def swe_call(ev):
    a = ev["action"]
    if isinstance(a, View):
        args = {"command": "view", "path": f"{WORKDIR}/{a.path}"}
        return "str_replace_editor", args, f"str_replace_editor view {WORKDIR}/{a.path}"
    if isinstance(a, Bash):
        return "bash", {"command": a.command}, a.command
    if isinstance(a, Replace):
        args = {"command": "str_replace", "path": f"{WORKDIR}/{a.path}", "old_str": a.old, "new_str": a.new}
        return "str_replace_editor", args, (f"str_replace_editor str_replace {WORKDIR}/{a.path}   "
                                            f"--old_str {shq(a.old)} --new_str {shq(a.new)}")
    if isinstance(a, Create):
        args = {"command": "create", "path": f"{WORKDIR}/{a.path}", "file_text": a.text}
        return "str_replace_editor", args, f"str_replace_editor create {WORKDIR}/{a.path} --file_text {shq(a.text)}"
    return "submit", {}, "submit"


def editor_observation(ev):
    a = ev["action"]
    path = f"{WORKDIR}/{a.path}"
    if isinstance(a, View):
        return f"Here's the result of running `cat -n` on {path}:\n{numbered(ev['content'])}"
    if isinstance(a, Create):
        return f"File created successfully at: {path}"
    return (f"The file {path} has been edited. Here's the result of running `cat -n` on a snippet of {path}:\n"
            f"{snippet(ev['after'], a.new)}Review the changes and make sure they are as expected. Edit the file "
            "again if necessary.")


def observation_text(ev):
    a = ev["action"]
    if isinstance(a, Bash):
        return ev["output"]
    if isinstance(a, Submit):
        return ev["submission"]
    return editor_observation(ev)


def render_swe_agent(task, attempt, events, request):
    meter = Meter(attempt.model)
    clock = Clock(attempt)
    instance = swe_instance(request)
    meter.add_context(SWE_SYSTEM + instance + "bash str_replace_editor submit tool schemas" * 60)
    history = [
        {"role": "system", "content": SWE_SYSTEM, "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": [{"type": "text", "text": instance}], "agent": "main",
         "message_type": "observation"},
    ]
    trajectory = []
    for i, ev in enumerate(events):
        name, args, action = swe_call(ev)
        call_id = f"toolu_{b62(attempt.id, i)}" if "claude" in attempt.model else f"call_{b62(attempt.id, i)}"
        meter.call(ev["thought"] + json.dumps(args))
        clock.tick(2, 9)
        obs = observation_text(ev)
        shown = obs if obs.strip() else "Your command ran successfully and did not produce any output."
        execution_time = 0.05 + (h(attempt.id, "exec", i) % 2500) / 1000
        history.append({"role": "assistant", "content": ev["thought"], "thought": ev["thought"], "action": action,
                        "agent": "main", "tool_calls": [{"function": {"arguments": json.dumps(args), "name": name},
                                                         "id": call_id, "type": "function"}],
                        "message_type": "action"})
        if isinstance(ev["action"], Submit):
            trajectory.append({"action": action, "observation": obs, "response": ev["thought"],
                               "thought": ev["thought"], "execution_time": round(execution_time, 3),
                               "state": {"working_dir": WORKDIR, "diff": obs}, "query": [], "extra_info": {}})
            break
        meter.add_context(shown)
        history.append({"role": "tool", "content": [{"type": "text", "text": f"OBSERVATION:\n{shown}"}],
                        "agent": "main", "message_type": "observation", "tool_call_ids": [call_id]})
        trajectory.append({"action": action, "observation": obs, "response": ev["thought"], "thought": ev["thought"],
                           "execution_time": round(execution_time, 3), "state": {"working_dir": WORKDIR},
                           "query": [], "extra_info": {}})
    submission = events[-1]["submission"]
    data = {
        "trajectory": trajectory,
        "history": history,
        "info": {
            "swe_agent_hash": hexid("swe-agent", "1.1.0", length=40),
            "swe_agent_version": "1.1.0",
            "swe_rex_version": "1.2.1",
            "swe_rex_hash": "unavailable",
            "submission": submission,
            "exit_status": "submitted",
            "model_stats": {"instance_cost": round(meter.cost, 6), "tokens_sent": meter.prompt,
                            "tokens_received": meter.completion, "api_calls": meter.calls},
        },
        "replay_config": json.dumps({
            "env": {"deployment": {"image": "specweave-base:bookworm", "type": "docker"},
                    "repo": {"path": WORKDIR, "base_commit": BASE, "type": "preexisting"}},
            "agent": {"model": {"name": attempt.model, "temperature": 0.0, "per_instance_cost_limit": 3.0}},
            "problem_statement": {"id": f"example__durations-{task.id}", "type": "text_file"},
        }),
        "environment": "main",
    }
    return json.dumps(data, ensure_ascii=False) + "\n", meter


# ---- mini-swe-agent 2.x, trajectory_format mini-swe-agent-1.1 --------------------------------------------------

MINI_SYSTEM = ("You are a helpful assistant that can interact multiple times with a computer shell to solve "
               "programming tasks.\nYour response must contain exactly ONE bash tool call.\n\nInclude a THOUGHT "
               "section before your command where you explain your reasoning process.")


def mini_instance(request):
    return ("<pr_description>\nConsider the following PR description:\n" + request + "</pr_description>\n\n"
            "<instructions>\n# Task Instructions\n\n## Overview\nYou're a software engineer interacting continuously "
            "with a computer by submitting commands.\nYou'll be helping implement necessary changes to meet "
            "requirements in the PR description.\nYour task is specifically to make changes to non-test files in the "
            "current directory in order to fix the issue described in the PR description in a way that is general "
            "and consistent with the codebase.\n\n## Submission\nWhen you've completed your work, issue exactly "
            "this command:\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff "
            "--cached\n```\n\nYou cannot continue working on this task after submitting.\n</instructions>")


def mini_command(a):
    if isinstance(a, Bash):
        return a.command
    if isinstance(a, View):
        return f"nl -ba {a.path}"
    if isinstance(a, Create):
        return f"cat > {a.path} <<'EOF'\n{a.text}EOF"
    if isinstance(a, Replace):
        return (f"python3 - <<'PY'\nfrom pathlib import Path\np = Path({a.path!r})\ns = p.read_text()\n"
                f"old = {a.old!r}\nnew = {a.new!r}\nassert s.count(old) == 1\np.write_text(s.replace(old, new))\nPY")
    return "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"


def render_mini(task, attempt, events, request):
    meter = Meter(attempt.model)
    clock = Clock(attempt)
    instance = mini_instance(request)
    meter.add_context(MINI_SYSTEM + instance + "bash tool schema" * 20)
    messages = [{"role": "system", "content": MINI_SYSTEM}, {"role": "user", "content": instance}]
    for i, ev in enumerate(events):
        a = ev["action"]
        cmd = mini_command(a)
        call_id = f"call_{b62(attempt.id, i)}"
        args = json.dumps({"command": cmd})
        p, c, cost = meter.call(ev["thought"] + args)
        t = clock.tick(2, 12)
        tool_calls = [{"function": {"arguments": args, "name": "bash"}, "id": call_id, "type": "function"}]
        content = ev["thought"] or None
        messages.append({
            "content": content, "role": "assistant", "tool_calls": tool_calls, "function_call": None,
            "provider_specific_fields": {"refusal": None}, "annotations": [],
            "extra": {
                "actions": [{"command": cmd, "tool_call_id": call_id}],
                "response": {
                    "id": f"chatcmpl-{b62(attempt.id, 'resp', i, length=29)}", "created": int(t.timestamp()),
                    "model": attempt.model, "object": "chat.completion", "system_fingerprint": None,
                    "usage": {"completion_tokens": c, "prompt_tokens": p, "total_tokens": p + c},
                },
                "cost": round(cost, 8),
                "timestamp": round(t.timestamp(), 6),
            },
        })
        if isinstance(a, Submit):
            sub = ev["submission"]
            messages.append({"role": "exit", "content": sub, "extra": {"exit_status": "Submitted", "submission": sub}})
            break
        if isinstance(a, View):
            out, rc = numbered(ev["content"]), 0
        else:
            out, rc = ev["output"], ev["exit_code"]
        t = clock.tick(0.1, 2.5)
        body = f"<returncode>{rc}</returncode>\n<output>\n{out}</output>"
        meter.add_context(body)
        messages.append({"content": body, "extra": {"raw_output": out, "returncode": rc,
                                                    "timestamp": round(t.timestamp(), 6), "exception_info": ""},
                         "tool_call_id": call_id, "role": "tool"})
    submission = events[-1]["submission"]
    data = {
        "info": {
            "model_stats": {"instance_cost": round(meter.cost, 8), "api_calls": meter.calls},
            "config": {
                "agent": {"system_template": MINI_SYSTEM, "step_limit": 250, "cost_limit": 3.0},
                "agent_type": "minisweagent.agents.default.DefaultAgent",
                "model": {"model_name": f"openai/{attempt.model}", "model_kwargs": {"drop_params": True}},
                "model_type": "minisweagent.models.litellm_model.LitellmModel",
                "environment": {"image": "specweave-base:bookworm", "cwd": WORKDIR, "timeout": 60},
                "environment_type": "minisweagent.environments.docker.DockerEnvironment",
            },
            "mini_version": "2.2.4",
            "exit_status": "Submitted",
            "submission": submission,
        },
        "messages": messages,
        "trajectory_format": "mini-swe-agent-1.1",
        "instance_id": f"example__durations-{task.id}",
    }
    return json.dumps(data, ensure_ascii=False) + "\n", meter


# ---- OpenHands: UI event export and evaluation output -------------------------------------------------------------

OH_SYSTEM = ("You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.\n\n"
             "<ROLE>\nYour primary role is to assist users by executing commands, modifying code, and solving "
             "technical problems effectively.\n</ROLE>")


def oh_instruction(request):
    return (f"<uploaded_files>\n{WORKDIR}\n</uploaded_files>\n\nI've uploaded a python code repository in the "
            f"directory {WORKDIR}. Consider the following issue description:\n\n<issue_description>\n{request}"
            "</issue_description>\n\nCan you help me implement the necessary changes to the repository so that the "
            "requirements specified in the <issue_description> are met?\nI've already taken care of all changes to "
            "any of the test files described in the <issue_description>. This means you DON'T have to modify the "
            "testing logic or any of the tests in any way!\nYour task is to make the minimal changes to non-test "
            f"files in the {WORKDIR} directory to ensure the <issue_description> is satisfied.")


def oh_events(task, attempt, events, request):
    meter = Meter(attempt.model)
    clock = Clock(attempt)
    instruction = oh_instruction(request)
    meter.add_context(OH_SYSTEM + instruction + "execute_bash str_replace_editor think finish schemas" * 50)
    out = []

    def add(ev):
        ev = {"id": len(out), "timestamp": clock.iso(), **ev}
        out.append(ev)
        return ev["id"]

    add({"source": "agent", "message": OH_SYSTEM, "action": "system",
         "args": {"content": OH_SYSTEM, "tools": ["execute_bash", "think", "finish", "str_replace_editor"],
                  "openhands_version": "0.28.1", "agent_class": "CodeActAgent"}})
    add({"source": "user", "message": instruction, "action": "message",
         "args": {"content": instruction, "image_urls": None, "wait_for_response": False}})
    add({"source": "environment", "message": "", "observation": "agent_state_changed", "content": "",
         "extras": {"agent_state": "running"}})
    for i, ev in enumerate(events):
        a = ev["action"]
        call_id = f"toolu_{b62(attempt.id, i)}" if "claude" in attempt.model else f"call_{b62(attempt.id, i)}"
        if isinstance(a, Submit):
            fn, args = "finish", {"message": a.message, "task_completed": "true"}
        elif isinstance(a, Bash):
            fn, args = "execute_bash", {"command": a.command}
        elif isinstance(a, View):
            fn, args = "str_replace_editor", {"command": "view", "path": f"{WORKDIR}/{a.path}"}
        elif isinstance(a, Replace):
            fn, args = "str_replace_editor", {"command": "str_replace", "path": f"{WORKDIR}/{a.path}",
                                              "old_str": a.old, "new_str": a.new}
        else:
            fn, args = "str_replace_editor", {"command": "create", "path": f"{WORKDIR}/{a.path}",
                                              "file_text": a.text}
        p, c, cost = meter.call(ev["thought"] + json.dumps(args))
        clock.tick(2, 10)
        meta = {
            "function_name": fn, "tool_call_id": call_id,
            "model_response": {
                "id": f"chatcmpl-{hexid(attempt.id, 'resp', i, length=32)}", "created": int(clock.t.timestamp()),
                "model": attempt.model, "object": "chat.completion", "system_fingerprint": None,
                "choices": [{"finish_reason": "tool_calls", "index": 0,
                             "message": {"content": ev["thought"], "role": "assistant",
                                         "tool_calls": [{"index": 1, "function": {"arguments": json.dumps(args),
                                                                                   "name": fn},
                                                         "id": call_id, "type": "function"}],
                                         "function_call": None}}],
                "usage": {"completion_tokens": c, "prompt_tokens": p, "total_tokens": p + c},
            },
            "total_calls_in_response": 1,
        }
        obs_meta = {"function_name": fn, "tool_call_id": call_id}
        metrics = {"accumulated_cost": round(meter.cost, 6),
                   "accumulated_token_usage": {"model": attempt.model, "prompt_tokens": meter.prompt,
                                               "completion_tokens": meter.completion, "cache_read_tokens": 0,
                                               "cache_write_tokens": 0, "response_id": ""},
                   "costs": [], "response_latencies": [], "token_usages": []}
        if isinstance(a, Submit):
            add({"source": "agent", "message": a.message, "action": "finish", "tool_call_metadata": meta,
                 "llm_metrics": metrics,
                 "args": {"final_thought": a.message, "task_completed": "true", "outputs": {},
                          "thought": ev["thought"]}})
            break
        if isinstance(a, Bash):
            cid = add({"source": "agent", "message": f"Running command: {a.command}", "action": "run",
                       "tool_call_metadata": meta, "llm_metrics": metrics,
                       "args": {"command": a.command, "is_input": False, "thought": ev["thought"],
                                "blocking": False, "hidden": False, "confirmation_state": "confirmed"}})
            rc = ev["exit_code"]
            content = ev["output"]
            add({"source": "agent", "message": f"Command `{a.command}` executed with exit code {rc}.", "cause": cid,
                 "observation": "run", "tool_call_metadata": obs_meta, "content": content,
                 "extras": {"command": a.command,
                            "metadata": {"exit_code": rc, "pid": -1, "username": "root",
                                         "hostname": hexid(attempt.id, "host", length=12),
                                         "working_dir": WORKDIR, "py_interpreter_path": "/usr/bin/python3",
                                         "prefix": "", "suffix": f"\n[The command completed with exit code {rc}.]"},
                            "hidden": False},
                 "success": rc == 0})
        elif isinstance(a, View):
            path = f"{WORKDIR}/{a.path}"
            content = editor_observation(ev)
            cid = add({"source": "agent", "message": f"Reading file: {path}", "action": "read",
                       "tool_call_metadata": meta, "llm_metrics": metrics,
                       "args": {"path": path, "start": 0, "end": -1, "thought": ev["thought"],
                                "impl_source": "oh_aci", "view_range": None}})
            add({"source": "agent", "message": f"I read the file {path}.", "cause": cid, "observation": "read",
                 "tool_call_metadata": obs_meta, "content": content, "extras": {"path": path, "impl_source": "oh_aci"}})
        else:
            path = f"{WORKDIR}/{a.path}"
            content = editor_observation(ev)
            is_create = isinstance(a, Create)
            cid = add({"source": "agent", "message": "", "action": "edit", "tool_call_metadata": meta,
                       "llm_metrics": metrics,
                       "args": {"path": path, "command": "create" if is_create else "str_replace",
                                "file_text": a.text if is_create else None,
                                "old_str": None if is_create else a.old, "new_str": None if is_create else a.new,
                                "insert_line": None, "content": "", "start": 1, "end": -1,
                                "thought": ev["thought"], "impl_source": "oh_aci"}})
            add({"source": "agent", "message": f"I edited the file {path}.", "cause": cid, "observation": "edit",
                 "tool_call_metadata": obs_meta, "content": content,
                 "extras": {"path": path, "prev_exist": ev["before"] is not None,
                            "old_content": None if is_create else a.old, "new_content": a.text if is_create else a.new,
                            "impl_source": "oh_aci", "diff": file_diff(a.path, ev["before"], ev["after"]),
                            "formatted_output_and_error": None}})
        meter.add_context(content)
    add({"source": "environment", "message": "", "observation": "agent_state_changed", "content": "",
         "extras": {"agent_state": "finished"}})
    return out, meter, instruction


def render_openhands_events(task, attempt, events, request):
    out, meter, _ = oh_events(task, attempt, events, request)
    return json.dumps(out, ensure_ascii=False) + "\n", meter


def render_openhands_eval(task, attempt, events, request):
    history, meter, instruction = oh_events(task, attempt, events, request)
    instance_id = f"example__durations-{task.id}"
    line = {
        "instance_id": instance_id,
        "test_result": {"git_patch": events[-1]["submission"]},
        "instruction": instruction,
        "metadata": {
            "agent_class": "CodeActAgent",
            "llm_config": {"model": attempt.model, "api_key": "**********", "temperature": 0.0, "max_output_tokens": 8192},
            "max_iterations": 30,
            "eval_output_dir": f"evaluation/evaluation_outputs/outputs/durations/CodeActAgent/{attempt.run}",
            "start_time": attempt.start.replace("T", " "),
            "git_commit": hexid("openhands", "0.28.1", length=40),
            "dataset": "specweave-example",
            "data_split": None,
            "details": {},
            "condenser_config": {"type": "noop"},
        },
        "history": history,
        "metrics": {"accumulated_cost": round(meter.cost, 6),
                    "accumulated_token_usage": {"model": "default", "prompt_tokens": meter.prompt,
                                                "completion_tokens": meter.completion, "cache_read_tokens": 0,
                                                "cache_write_tokens": 0, "response_id": ""},
                    "costs": [], "response_latencies": [], "token_usages": []},
        "error": None,
        "instance": {"instance_id": instance_id, "repo": "example/durations", "base_commit": BASE,
                     "problem_statement": request},
    }
    return json.dumps(line, ensure_ascii=False) + "\n", meter


# ---- Claude Code session JSONL -------------------------------------------------------------------------------------

def structured_patch(before, after):
    hunks = []
    sm = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines())
    for group in sm.get_grouped_opcodes(3):
        a0, a1, b0, b1 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + x for x in before.splitlines()[i1:i2]]
            else:
                lines += ["-" + x for x in before.splitlines()[i1:i2]]
                lines += ["+" + x for x in after.splitlines()[j1:j2]]
        hunks.append({"oldStart": a0 + 1, "oldLines": a1 - a0, "newStart": b0 + 1, "newLines": b1 - b0,
                      "lines": lines})
    return hunks


def render_claude_code(task, attempt, events, request):
    clock = Clock(attempt)
    session = stable_uuid(attempt.id, "session")
    common = {"isSidechain": False, "userType": "external", "cwd": WORKDIR, "sessionId": session,
              "version": "2.0.14", "gitBranch": "main"}
    lines = []
    parent = None
    context = tokens(request) + 14000  # Claude Code's system prompt and tool definitions
    cached = 0
    totals = {"input": 0, "output": 0}
    cost = 0.0

    def emit(obj):
        nonlocal parent
        rec = {"parentUuid": parent, **common, **obj, "uuid": stable_uuid(attempt.id, len(lines)),
               "timestamp": clock.iso(0.02, 0.3, z=True)}
        lines.append(rec)
        parent = rec["uuid"]
        return rec

    def assistant(msg_id, req_id, block, usage):
        return emit({"message": {"model": attempt.model, "id": msg_id, "type": "message", "role": "assistant",
                                 "content": [block], "stop_reason": None, "stop_sequence": None, "usage": usage},
                     "requestId": req_id, "type": "assistant"})

    emit({"type": "user", "message": {"role": "user", "content": request}})
    for i, ev in enumerate(events):
        a = ev["action"]
        msg_id = f"msg_01{b62(attempt.id, 'msg', i, length=22)}"
        req_id = f"req_011C{b62(attempt.id, 'req', i, length=20)}"
        if isinstance(a, Submit):
            written = a.message
        elif isinstance(a, Bash):
            tool, inp = "Bash", {"command": a.command, "description": a.description or "Run command"}
        elif isinstance(a, View):
            tool, inp = "Read", {"file_path": f"{WORKDIR}/{a.path}"}
        elif isinstance(a, Replace):
            tool, inp = "Edit", {"file_path": f"{WORKDIR}/{a.path}", "old_string": a.old, "new_string": a.new}
        else:
            tool, inp = "Write", {"file_path": f"{WORKDIR}/{a.path}", "content": a.text}
        if not isinstance(a, Submit):
            written = ev["thought"] + json.dumps(inp)
        out_tokens = tokens(written) + 8
        creation = context - cached
        usage = {"input_tokens": 4, "cache_creation_input_tokens": creation, "cache_read_input_tokens": cached,
                 "output_tokens": out_tokens, "service_tier": "standard"}
        pin, pout = PRICES[attempt.model]
        cost += (4 * pin + creation * pin * 1.25 + cached * pin * 0.1 + out_tokens * pout) / 1e6
        totals["input"] += 4 + creation + cached
        totals["output"] += out_tokens
        cached = context
        context += out_tokens
        clock.tick(2, 8)
        if isinstance(a, Submit):
            assistant(msg_id, req_id, {"type": "text", "text": a.message}, usage)
            break
        if ev["thought"]:
            assistant(msg_id, req_id, {"type": "text", "text": ev["thought"]}, usage)
        tool_id = f"toolu_01{b62(attempt.id, 'tool', i, length=22)}"
        use = assistant(msg_id, req_id, {"type": "tool_use", "id": tool_id, "name": tool, "input": inp}, usage)
        path = f"{WORKDIR}/{getattr(a, 'path', '')}"
        if isinstance(a, Bash):
            text, result = ev["output"].rstrip("\n"), {"stdout": ev["output"].rstrip("\n"), "stderr": "",
                                                      "interrupted": False, "isImage": False}
        elif isinstance(a, View):
            text = numbered(ev["content"], arrow=True)
            n = ev["content"].count("\n")
            result = {"type": "text", "file": {"filePath": path, "content": ev["content"], "numLines": n,
                                               "startLine": 1, "totalLines": n + 1}}
        elif isinstance(a, Replace):
            text = (f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the "
                    f"edited file:\n{snippet(ev['after'], a.new, arrow=True)}")
            result = {"filePath": path, "oldString": a.old, "newString": a.new, "originalFile": ev["before"],
                      "structuredPatch": structured_patch(ev["before"], ev["after"]), "userModified": False,
                      "replaceAll": False}
        else:
            text = f"File created successfully at: {path}"
            result = {"type": "create", "filePath": path, "content": a.text, "structuredPatch": [],
                      "originalFile": ev["before"]}
        parent = use["uuid"]
        emit({"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": tool_id, "type": "tool_result", "content": text, "is_error": False}]},
            "toolUseResult": result})
        context += tokens(text)
    meter = Meter(attempt.model)
    meter.cost, meter.prompt, meter.completion, meter.calls = cost, totals["input"], totals["output"], len(events)
    return "".join(json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n" for x in lines), meter


RENDERERS = {
    "swe-agent": render_swe_agent,
    "mini-swe-agent": render_mini,
    "openhands-events": render_openhands_events,
    "openhands-eval": render_openhands_eval,
    "claude-code": render_claude_code,
}


# ---- writing the dataset ---------------------------------------------------------------------------------------

def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def edits_patch(tmp, edits, name):
    work = fresh_clone(tmp, name)
    for e in edits:
        apply_edit(work, e)
    return staged_diff(work)


def attempt_json(attempt, meter, trajectory_file):
    data = {
        "model": attempt.model,
        "agent": attempt.agent,
        "run": attempt.run,
        "costUsd": round(meter.cost, 4),
        "tokens": {"input": meter.prompt, "output": meter.completion},
        "claimed": {"status": attempt.claimed_status, "summary": attempt.claimed_summary},
        "patch": "patch.diff",
        "trajectory": trajectory_file,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def spec_outcomes(task_json, attempt_failing, violates):
    """Verifier verdict per spec through the spec-test map, set against the truth."""
    out = {}
    for spec in task_json["specs"]:
        sid = spec["id"]
        covering = [t["id"] for t in task_json["tests"] if sid in t.get("specs", [])]
        verifier = "unknown" if not covering else ("fail" if any(t in attempt_failing for t in covering) else "pass")
        truth = "violated" if sid in violates else "satisfied"
        outcome = {("satisfied", "pass"): "true_pass", ("violated", "fail"): "true_fail",
                   ("violated", "pass"): "false_positive", ("satisfied", "fail"): "false_negative"}.get(
            (truth, verifier), "undecided")
        out[sid] = {"truth": truth, "verifier": verifier, "outcome": outcome}
        if sid in violates:
            out[sid]["why"] = violates[sid]
    return out


def compact_json(value, indent=""):
    """Indented JSON where short lists and objects stay on one line, so the file reads and diffs well."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or len(indent) + len(flat) <= 110:
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + compact_json(v, inner) for v in value) + "\n" + indent + "]"
    items = [f"{inner}{json.dumps(k)}: {compact_json(v, inner)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def main():
    global BASE
    subprocess.run(["sh", str(EXAMPLES / "build-repos.sh")], check=True)
    BASE = base_commit()
    truth = {
        "format": 1,
        "about": "Ground truth of the example dataset, written by hand in examples/authoring and checked by "
                 "test/unit/exampleDataset.test.ts, which runs every patch. Test ids refer to each task's task.json.",
        "dataset": "examples/dataset",
        "repository": {"name": "example/durations", "path": "examples/repos/durations", "baseCommit": BASE},
        "falsePositives": [],
        "falseNegatives": [],
        "uncoveredSpecs": [],
        "weakTests": [],
        "tasks": {},
    }
    with tempfile.TemporaryDirectory(prefix="sw-example-") as tmp:
        for task in TASKS:
            tdir = DATASET / "tasks" / task.id
            task_json = json.loads((tdir / "task.json").read_text())
            request = (tdir / "request.md").read_text()
            write(tdir / "tests.patch", edits_patch(tmp, task.test_edits, f"{task.id}-tests"))
            write(tdir / "gold.patch", edits_patch(tmp, task.gold_edits, f"{task.id}-gold"))
            if (tdir / "attempts").exists():
                shutil.rmtree(tdir / "attempts")
            entry = {
                "runs": {"gold": {"failingTests": []}, "empty": {"failingTests": task.empty_failing_tests}},
                "attempts": {},
            }
            for sid in [s["id"] for s in task_json["specs"]]:
                if not any(sid in t.get("specs", []) for t in task_json["tests"]):
                    truth["uncoveredSpecs"].append({"task": task.id, "spec": sid})
            for tid, why in task.weak_tests.items():
                truth["weakTests"].append({"task": task.id, "test": tid, "why": why})
            for attempt in task.attempts:
                work = fresh_clone(tmp, f"{task.id}-{attempt.id}", attempt.start)
                events = replay(attempt, work)
                if not isinstance(events[-1]["action"], Submit):
                    raise SystemExit(f"{task.id}/{attempt.id}: a story must end with Submit")
                submission = events[-1]["submission"]
                text, meter = RENDERERS[attempt.format](task, attempt, events, request)
                adir = tdir / "attempts" / attempt.id
                tfile = TRAJECTORY_FILES[attempt.format]
                write(adir / "patch.diff", submission)
                write(adir / tfile, text)
                write(adir / "attempt.json", attempt_json(attempt, meter, tfile))
                entry["runs"][attempt.id] = {"failingTests": attempt.failing_tests}
                specs = spec_outcomes(task_json, attempt.failing_tests, attempt.violates)
                entry["attempts"][attempt.id] = {
                    "format": attempt.format,
                    "outcome": attempt.outcome,
                    "resolved": not attempt.failing_tests,
                    "responsibleTests": attempt.responsible_tests,
                    "explanation": attempt.explanation,
                    "specs": specs,
                }
                ref = {"task": task.id, "attempt": attempt.id,
                       "specs": [s for s, v in specs.items() if v["outcome"] == attempt.outcome],
                       "tests": attempt.responsible_tests, "why": attempt.explanation}
                if attempt.outcome == "false_positive":
                    truth["falsePositives"].append(ref)
                elif attempt.outcome == "false_negative":
                    truth["falseNegatives"].append(ref)
                print(f"{task.id}/{attempt.id}: {attempt.format}, {len(events)} steps, ${meter.cost:.4f}")
            if task.repair:
                entry["repair"] = task.repair
                old, new = task.repair["replace"]["old"], task.repair["replace"]["new"]
                patch = (tdir / "tests.patch").read_text()
                if patch.count(old) != 1:
                    raise SystemExit(f"{task.id}: the repair's text to replace is not in tests.patch exactly once")
                write(EXAMPLES / "repairs" / task.id / "tests.patch", patch.replace(old, new))
            entry["probes"] = task.probes
            truth["tasks"][task.id] = entry
    write(EXAMPLES / "ground-truth.json", compact_json(truth) + "\n")


BASE = ""

if __name__ == "__main__":
    main()
