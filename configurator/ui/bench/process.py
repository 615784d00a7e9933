"""Driving a :class:`~configurator.bench.runner.SuiteSession` with QProcess, on the GUI thread
without blocking it. Each child's end is handled exactly once, whichever of ``finished``
and ``errorOccurred`` (FailedToStart) arrives; timeout and cancel terminate the child's
process tree (its group, and every descendant psutil finds, those that left the group or
session too), then kill it after a grace period; what a child leaves behind is killed when it ends."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

from configurator.bench.runner import (
    GRACE_S,
    REFRESH_S,
    STDERR_TAIL,
    TREE_VAR,
    Event,
    Job,
    ProcessTree,
    SuiteSession,
    child_env,
    tree_token,
)


class QtSuiteRunner(QObject):
    job_event = Signal(object)  # configurator.bench.runner.Event
    finished = Signal(object)  # the RunRecord

    def __init__(self, parent: QObject | None = None, grace_s: float = GRACE_S):
        super().__init__(parent)
        self.grace_ms = int(grace_s * 1000)
        self.session: SuiteSession | None = None
        self.proc: QProcess | None = None
        self._job: Job | None = None
        self._closed = True
        self._timed_out = self._cancelled = False
        self._buffer = b""
        self._tail: list[str] = []
        self._stopping = False
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.timeout.connect(self._on_timeout)
        self._grace = QTimer(self)
        self._grace.setSingleShot(True)
        self._grace.timeout.connect(lambda: self._signal(kill=True))
        self._next = QTimer(self)
        self._next.setSingleShot(True)
        self._next.setInterval(0)
        self._next.timeout.connect(self._start_next)
        self._settle = QTimer(self)  # the pause before a workload's child (the machine's "before" is measured then)
        self._settle.setSingleShot(True)
        self._settle.timeout.connect(self._launch)
        self.tree: ProcessTree | None = None  # the running child's, from when it started
        self._token: str | None = None
        self._refresh = QTimer(self)  # remembers new descendants, so one whose parent dies is still found
        self._refresh.setInterval(int(REFRESH_S * 1000))
        self._refresh.timeout.connect(self._on_refresh)

    # -- public ------------------------------------------------------------------------
    def is_running(self) -> bool:
        return self.session is not None and not self.session.finished

    def start(self, session: SuiteSession) -> None:
        if self.is_running():
            raise RuntimeError("a suite is already running")
        self.session = session
        self._stopping = False
        self._start_next()

    def cancel(self) -> None:
        if self.session is None or self.session.finished:
            return
        if self.proc is not None and not self._closed:
            self._cancelled = True
            self._signal(kill=False)
            self._grace.start(self.grace_ms)
        elif self._settle.isActive():  # in the pause before the child: the job is cancelled unstarted
            self._settle.stop()
            for ev in self.session.job_finished(None, cancelled=True):
                self.job_event.emit(ev)
            self._next.start()
        else:
            self.session.cancel()
            self._next.start()

    def shutdown(self, msecs: int = 5000) -> None:
        """For the app's exit and tests: cancel, kill the child, wait for it; no further jobs start."""
        self._stopping = True
        self._next.stop()
        was_running = self.is_running()
        if self._settle.isActive() and self.session is not None:
            self._settle.stop()
            self.session.job_finished(None, cancelled=True)
        if self.session is not None and not self.session.finished:
            self.session.cancel()
        proc = self.proc
        if proc is not None and not self._closed:
            self._cancelled = True
            self._signal(kill=True)
            proc.waitForFinished(msecs)
            if not self._closed:  # finished never came: close the job ourselves
                self._ended(None, crashed=True)
        self._deadline.stop()
        self._grace.stop()
        if self.session is not None and was_running:
            self.session.next_job()  # completes the record (cancelled)
            self.finished.emit(self.session.record)

    # -- one child at a time ---------------------------------------------------------------
    def _start_next(self) -> None:
        session = self.session
        if session is None:
            return
        job = None if self._stopping else session.next_job()
        for ev in session.take_events():
            self.job_event.emit(ev)
        if job is None:
            if self._stopping:
                return
            self.job_event.emit(Event("finished", fraction=1.0))
            self.finished.emit(session.record)
            return
        self._job = job
        if job.settle_s > 0:
            self._settle.start(int(job.settle_s * 1000))
        else:
            self._launch()

    def _launch(self) -> None:
        session, job = self.session, self._job
        if session is None or job is None:
            return
        session.child_starting()
        self._closed = False
        self._timed_out = self._cancelled = False
        self._buffer = b""
        self._tail = []
        proc = QProcess(self)
        self.proc = proc
        env = QProcessEnvironment()
        for k, v in child_env().items():
            env.insert(k, v)
        self._token = tree_token()
        env.insert(TREE_VAR, self._token)
        proc.setProcessEnvironment(env)
        proc.setProgram(job.argv[0])
        proc.setArguments(job.argv[1:])
        if hasattr(os, "killpg") and hasattr(QProcess, "UnixProcessFlag"):
            params = QProcess.UnixProcessParameters()
            params.flags = QProcess.UnixProcessFlag.CreateNewSession
            proc.setUnixProcessParameters(params)
        proc.setStandardInputFile(QProcess.nullDevice())
        proc.readyReadStandardOutput.connect(self._read_stdout)
        proc.readyReadStandardError.connect(self._read_stderr)
        proc.finished.connect(self._on_finished)
        proc.errorOccurred.connect(self._on_error)
        proc.started.connect(self._on_started)
        self.job_event.emit(Event("job_started", job.name, fraction=session.fraction))
        self._deadline.start(int(job.timeout_s * 1000))
        proc.start()

    def _on_refresh(self) -> None:
        tree = self.tree
        if tree is None:
            return
        tree.refresh()
        if self.session is not None:
            self.session.sample_load([tree.pid, *(p.pid for p in tree.descendants())])

    def _read_stdout(self) -> None:
        if self.proc is None or self.session is None:
            return
        self._buffer += bytes(self.proc.readAllStandardOutput().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for raw in lines:
            for ev in self.session.feed(raw.decode("utf-8", errors="replace")):
                self.job_event.emit(ev)

    def _read_stderr(self) -> None:
        if self.proc is None or self._job is None:
            return
        text = bytes(self.proc.readAllStandardError().data()).decode("utf-8", errors="replace")
        for line in text.splitlines():
            self._tail.append(line)
            self.job_event.emit(Event("stderr", self._job.name, text=line))
        del self._tail[:-STDERR_TAIL]

    def _on_timeout(self) -> None:
        if self.proc is not None and not self._closed:
            self._timed_out = True
            self._signal(kill=False)
            self._grace.start(self.grace_ms)

    def _on_started(self) -> None:
        if self.proc is not None and self.proc.processId() > 0:
            self.tree = ProcessTree(self.proc.processId(), self._token)
            self._refresh.start()

    def _signal(self, kill: bool) -> None:
        proc = self.proc
        if proc is None or proc.state() == QProcess.ProcessState.NotRunning:
            return
        if self.tree is not None:  # the tree, walked again now: group, descendants, the rest of its session
            if kill:
                self.tree.kill()
            else:
                self.tree.terminate()
        if kill:
            proc.kill()
        elif self.tree is None or not hasattr(os, "killpg"):
            proc.terminate()

    def _on_finished(self, exit_code: int, status: QProcess.ExitStatus) -> None:
        self._ended(exit_code if status == QProcess.ExitStatus.NormalExit else None,
                    crashed=status == QProcess.ExitStatus.CrashExit)

    def _on_error(self, error: QProcess.ProcessError) -> None:
        # Only a failed start ends a job without `finished`; Crashed is followed by finished.
        if error == QProcess.ProcessError.FailedToStart and self.proc is not None:
            self._ended(None, start_error=self.proc.errorString())

    def _ended(self, exit_code: int | None, crashed: bool = False, start_error: str | None = None) -> None:
        if self._closed:  # finished and errorOccurred may both arrive: handle one
            return
        self._closed = True
        self._deadline.stop()
        self._grace.stop()
        self._refresh.stop()
        tree, self.tree = self.tree, None
        if tree is not None:
            tree.kill()  # what the child left running: nothing of a job outlives it
        if self.proc is not None and start_error is None:
            self._read_stdout()
            self._read_stderr()
            if self._buffer.strip() and self.session is not None:
                for ev in self.session.feed(self._buffer.decode("utf-8", errors="replace")):
                    self.job_event.emit(ev)
            self._buffer = b""
        if self.session is not None:
            events = self.session.job_finished(exit_code, timed_out=self._timed_out, cancelled=self._cancelled,
                                               stderr_tail="\n".join(self._tail), start_error=start_error)
            for ev in events:
                self.job_event.emit(ev)
        proc, self.proc = self.proc, None
        if proc is not None:
            proc.deleteLater()
        if not self._stopping:
            self._next.start()
