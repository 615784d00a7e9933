"""The runner against real child processes running the torch-free fault worker."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import psutil
import pytest

from configurator.bench.runner import LINGER_S, Event, SubprocessRunner, SuiteSession

FAULT = "tests.support.fault_worker"


def session(jobs: list[str], **kw) -> SuiteSession:  # type: ignore[no-untyped-def]
    kw.setdefault("timeout_s", 20.0)
    kw.setdefault("settle_s", 0.0)  # no pause before each job: these tests are about faults
    return SuiteSession("quick", "cpu", jobs, worker_module=FAULT, fingerprint=kw.pop("fingerprint", False), **kw)


def run(s: SuiteSession, grace_s: float = 1.0, events: list[Event] | None = None, on_event=None):  # type: ignore[no-untyped-def]
    got: list[Event] = [] if events is None else events

    def handler(ev: Event) -> None:
        got.append(ev)
        if on_event:
            on_event(ev)

    runner = SubprocessRunner(s, handler, grace_s=grace_s)
    return runner, runner.run()


def test_ok_job_reports_its_row_and_progress() -> None:
    events: list[Event] = []
    _, rec = run(session(["ok"], overrides={"ok": {"batch": 5}}), events=events)
    assert rec.status == "finished" and rec.error is None
    [row] = rec.rows
    assert (row.name, row.status, row.value, row.unit, row.settings) == ("ok", "ok", 5.0, "img/s", {"batch": 5})
    assert any(e.kind == "progress" and e.fraction == pytest.approx(0.5) for e in events)
    assert rec.finished_at is not None and rec.duration_s is not None


def test_crash_is_a_failure_with_its_reason_and_the_suite_goes_on() -> None:
    _, rec = run(session(["crash", "ok"]))
    crash, ok = rec.rows
    assert crash.status == "failed"
    text = crash.error_text() or ""
    assert "SIGSEGV" in text and "segfaulting on purpose" in text
    assert ok.status == "ok" and rec.status == "finished"


def test_nonzero_exit_names_the_code_and_the_last_stderr_line() -> None:
    _, rec = run(session(["exit"]))
    [row] = rec.rows
    assert row.status == "failed"
    assert "exit code 7" in (row.error_text() or "") and "giving up" in (row.error_text() or "")


def test_hang_past_the_timeout_is_stopped() -> None:
    start = time.monotonic()
    _, rec = run(session(["hang", "ok"], timeout_s=1.0))
    hang, ok = rec.rows
    assert hang.status == "timeout" and "1 s" in (hang.error_text() or "")
    assert ok.status == "ok"
    assert time.monotonic() - start < 15


def test_a_child_that_ignores_sigterm_is_killed_after_the_grace_period() -> None:
    start = time.monotonic()
    _, rec = run(session(["stubborn"], timeout_s=1.0), grace_s=0.5)
    assert rec.rows[0].status == "timeout"
    assert time.monotonic() - start < 15


def test_out_of_memory_halves_the_batch_until_it_fits() -> None:
    events: list[Event] = []
    _, rec = run(session(["oom"], overrides={"oom": {"batch": 64, "fits": 8}}), events=events)
    [row] = rec.rows
    assert row.status == "ok" and row.value == 8.0 and row.settings == {"batch": 8}
    assert row.details["oom_retries"] == 3
    logs = [e.message.render() for e in events if e.kind == "log" and e.message and "retrying" in e.message.template]
    assert logs == ["oom: out of memory at batch 64, retrying with batch 32",
                    "oom: out of memory at batch 32, retrying with batch 16",
                    "oom: out of memory at batch 16, retrying with batch 8"]


def test_out_of_memory_at_batch_one_is_a_failure() -> None:
    _, rec = run(session(["oom", "ok"], overrides={"oom": {"batch": 4, "fits": 0}}))
    oom, ok = rec.rows
    assert oom.status == "failed" and "even at batch 1" in (oom.error_text() or "")
    assert ok.status == "ok"


def test_garbage_output_is_a_failure_that_quotes_it() -> None:
    events: list[Event] = []
    _, rec = run(session(["garbage"]), events=events)
    [row] = rec.rows
    assert row.status == "failed"
    assert "not understood" in (row.error_text() or "") and "library printing" in (row.error_text() or "")
    assert [e.kind for e in events].count("garbage") == 2


def test_cancel_stops_the_running_child_and_cancels_the_rest() -> None:
    runner_box: list[SubprocessRunner] = []

    def on_event(ev: Event) -> None:
        if ev.kind == "progress" and ev.job == "slow":
            runner_box[0].cancel()

    s = session(["ok", "slow", "ok2"])
    got: list[Event] = []
    runner = SubprocessRunner(s, lambda e: (got.append(e), on_event(e)), grace_s=1.0)
    runner_box.append(runner)
    start = time.monotonic()
    rec = runner.run()
    assert time.monotonic() - start < 15
    assert rec.status == "cancelled"
    status = {r.name: r.status for r in rec.rows}
    assert status == {"ok": "ok", "slow": "cancelled", "ok2": "cancelled"}


def test_an_interpreter_that_does_not_exist_is_reported() -> None:
    _, rec = run(session(["ok"], python=str(Path("/nonexistent") / "python3")))
    assert rec.rows[0].status == "failed"
    assert "could not start" in (rec.rows[0].error_text() or "")


def test_fingerprint_job_resolves_the_device_and_machine() -> None:
    _, rec = run(session(["ok"], fingerprint=True))
    assert rec.fingerprint["cpu"] == "fault worker" and rec.resolved_device == "cpu"
    assert len(rec.machine) == 16 and rec.rows[0].status == "ok"


def test_a_failed_fingerprint_stops_the_suite_with_the_reason() -> None:
    s = SuiteSession("quick", "cpu", ["matmul"], python="/usr/bin/true-python-missing")
    rec = SubprocessRunner(s).run()
    assert rec.status == "failed" and rec.rows == []
    assert rec.error is not None and "could not start" in rec.error.render()


def test_cuda_only_jobs_are_skipped_without_a_process_on_cpu() -> None:
    s = SuiteSession("quick", "cpu", ["copies", "vram"], fingerprint=False)
    events: list[Event] = []
    rec = SubprocessRunner(s, events.append).run()
    assert {r.status for r in rec.rows} == {"skipped"} and len(rec.rows) == 5
    assert all("CUDA" in (r.error_text() or "") for r in rec.rows)
    assert [e.kind for e in events].count("row") == 5


# -- the whole process tree, and pipes held open by descendants ------------------------------------------------------


class Tree:
    """Collects the pids a fault worker logs (``started {pids}``) as psutil processes, taken while they run."""

    def __init__(self, then=None):  # type: ignore[no-untyped-def]
        self.procs: list[psutil.Process] = []
        self.then = then

    def __call__(self, ev: Event) -> None:
        if ev.kind == "log" and ev.message is not None and "pids" in ev.message.params:
            self.procs = [psutil.Process(pid) for pid in ev.message.params["pids"]]
            if self.then is not None:
                self.then()

    def left_running(self) -> list[int]:
        """Pids still running (not zombies) a few seconds after the job ended: a wait on their exit, not a clock."""
        assert self.procs, "the worker never reported its tree"
        _gone, alive = psutil.wait_procs(self.procs, timeout=3)
        running = []
        for p in alive:
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    running.append(p.pid)
            except psutil.NoSuchProcess:
                pass
        return running


def cleanup(tree: Tree) -> None:
    for p in tree.procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()


def test_a_timeout_does_not_wait_for_pipes_held_by_grandchildren_and_ends_them() -> None:
    """Before: the readers joined on stdout EOF, which a grandchild held: a 2 s timeout took 40 s."""
    tree = Tree()
    start = time.monotonic()
    try:
        _, rec = run(session(["orphans"], timeout_s=2.0), on_event=tree)
        took = time.monotonic() - start
        [row] = rec.rows
        assert row.status == "timeout" and "2 s" in (row.error_text() or "")
        assert took < 6, f"a 2 s timeout took {took:.1f} s"
        assert len(tree.procs) == 3  # the worker, a sleeper in its session, one in a session of its own
        assert os.getsid(tree.procs[2].pid) == tree.procs[2].pid != os.getsid(tree.procs[1].pid)
        assert tree.left_running() == []
        print(f"\n2 s timeout with two grandchildren holding stdout: {took:.2f} s")
    finally:
        cleanup(tree)


def test_cancel_ends_grandchildren_in_and_out_of_the_session() -> None:
    box: list[SubprocessRunner] = []
    tree = Tree(then=lambda: box[0].cancel())
    s = session(["orphans", "ok"])
    runner = SubprocessRunner(s, tree, grace_s=1.0)
    box.append(runner)
    start = time.monotonic()
    try:
        rec = runner.run()
        took = time.monotonic() - start
        assert {r.name: r.status for r in rec.rows} == {"orphans": "cancelled", "ok": "cancelled"}
        assert took < 6, f"cancel took {took:.1f} s"
        assert tree.left_running() == []
        print(f"\ncancel with two grandchildren holding stdout: {took:.2f} s")
    finally:
        cleanup(tree)


def test_cancel_ends_a_torchrun_like_tree() -> None:
    """A launcher with two ranks, each with a child: SIGTERM kills the launcher at once (its ranks are
    re-parented and out of its tree); every one of the five is gone after cancel."""
    box: list[SubprocessRunner] = []
    tree = Tree(then=lambda: box[0].cancel())
    runner = SubprocessRunner(session(["tree"]), tree, grace_s=1.0)
    box.append(runner)
    start = time.monotonic()
    try:
        rec = runner.run()
        assert rec.rows[0].status == "cancelled" and time.monotonic() - start < 6
        assert len(tree.procs) == 5
        assert tree.left_running() == []
    finally:
        cleanup(tree)


def test_a_job_that_finishes_is_not_held_up_by_what_it_left_running() -> None:
    tree = Tree()
    start = time.monotonic()
    try:
        _, rec = run(session(["leaky"], timeout_s=30.0), on_event=tree)
        took = time.monotonic() - start
        [row] = rec.rows
        assert row.status == "ok" and row.value == 1.0
        assert took < LINGER_S + 3, f"took {took:.1f} s"
        assert tree.left_running() == []
    finally:
        cleanup(tree)


def test_keyboard_interrupt_in_the_runner_still_ends_the_tree() -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    tree = Tree(then=interrupt)
    try:
        with pytest.raises(KeyboardInterrupt):
            run(session(["orphans"]), on_event=tree)
        assert tree.left_running() == []
    finally:
        cleanup(tree)
