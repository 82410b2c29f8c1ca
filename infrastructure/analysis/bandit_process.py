"""Bandit in a process of its own, for a long-lived assessor (the service, local mode's service).

Why: Bandit and the AST analysis are both Python, so in one process they share the interpreter's
lock and run one after the other; a 50-line program waited for both (~10 ms each) while Semgrep's
engine, a process of its own, worked beside them (issue #29). Here Bandit is handed the code over a
pipe before the AST analysis starts, as Semgrep is, and the three run at once.

The process (``python -P -m`` this module) loads Bandit's plugins once, says it is ready, then
answers one program at a time with what Bandit reported (``BanditScanner``: plain records, as JSON,
framed by ``multiprocessing.connection``); the policy's levels are applied here, by the
``BanditAnalyzer`` it stands for, so the findings are the same as in-process, finding for finding.

- **When it is busy or not ready** (another assessment holds it, it is still starting, it could not
  start), the program is read in-process, as before: never queued behind another's.
- **When it dies or overruns while reading a program**, that program is not trusted to be clean:
  the failure is the analyzer's (the suite rates it at the policy's failure level, like any
  analyzer that fails), the process is killed, and a new one is started in the background. A
  program that crashes Bandit's parser ends this process, not the service.
- **It holds no secret the owner was given in its environment**: our settings (the ledger's URL,
  with its password) and libpq's are left out of its environment.
- **It ends with its owner**: it reads its requests from a pipe the owner holds, so when the owner
  ends, even killed, the pipe closes and the process exits once it has answered the program it
  may be reading.
- Its answer is read with a deadline and a size bound (``MAX_ANSWER_BYTES``); a process that has not
  answered, or not taken the code, by the deadline is killed.

A one-shot command (``warm_semgrep=False``) reads in-process: starting the process costs more than
it saves there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from mai_safety.domain.assessment import Finding, Submission

from .bandit import BanditAnalyzer, BanditReport, BanditScanner
from .child_environment import environment_without_secrets

#: The most an answer may hold; a bigger one is a failure of the analyzer (a 1 MiB program's
#: findings are a few MiB at worst).
MAX_ANSWER_BYTES = 64 << 20
#: Code up to this size is written on the caller's thread before the analyzers start; a pipe holds
#: 64 KiB (Linux's default), and an idle process has read everything before, so the write cannot
#: block. Bigger code is written by Bandit's own thread, under the deadline.
PIPE_HOLDS_BYTES = 60 * 1024
#: The most a request may hold (the service's own size limit on code is far lower).
MAX_REQUEST_BYTES = 256 << 20
#: How long a new process may take to load Bandit and say it is ready.
START_TIMEOUT_S = 60.0
#: Starts that fail one after the other before the analyzer stops trying and reads in-process.
MAX_FAILED_STARTS = 3

_READY = b"ready"


class BanditProcessFailed(RuntimeError):
    """The process died, overran its deadline or answered wrongly while reading a program."""


class _Process:
    """One started process and the two ends of the pipes the owner holds."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            self.popen = subprocess.Popen(
                [sys.executable, "-P", "-m", __name__],
                stdin=to_child_r,
                stdout=from_child_w,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                env=environment_without_secrets(),
            )
        except BaseException:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            raise
        os.close(to_child_r)
        os.close(from_child_w)
        self.requests = Connection(to_child_w, readable=False)
        self.answers = Connection(from_child_r, writable=False)
        self.busy = False

    def wait_until_ready(self, timeout_s: float) -> None:
        if not self.answers.poll(timeout_s):
            raise BanditProcessFailed(f"Bandit's process did not start within {timeout_s:g} s")
        if self.answers.recv_bytes(len(_READY)) != _READY:
            raise BanditProcessFailed("Bandit's process did not say it was ready")

    def end(self, *, at_once: bool = False) -> None:
        """Close its pipes (it exits on its own) and make sure it is gone; ``at_once``: kill it
        first (it failed, and may be stuck)."""
        if at_once:
            self.popen.kill()
        for connection in (self.requests, self.answers):
            try:
                connection.close()
            except OSError:
                pass
        try:
            self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


def _end_all(processes: list[_Process]) -> None:
    while processes:
        processes.pop().end()


class BanditInItsOwnProcess:
    """Stands for ``analyzer`` in a long-lived suite: hands the code to a process of its own."""

    name = "bandit"

    def __init__(self, analyzer: BanditAnalyzer, deadline_s: float) -> None:
        self._analyzer = analyzer
        self._deadline_s = deadline_s
        self._lock = threading.Lock()
        # At most one, and only once it has said it is ready; a list so the finalizer sees the current one.
        self._processes: list[_Process] = []
        self._failed_starts = 0
        self._starting = False
        self._closed = False
        self.disabled_reason = ""
        self._finalizer = weakref.finalize(self, _end_all, self._processes)
        self._start_in_background()

    @property
    def own_process(self) -> bool:
        """True while the process is ready to take a program (for tests and benchmarks)."""
        with self._lock:
            return bool(self._processes)

    @property
    def pid(self) -> int | None:
        """The process's id, while there is one (for tests and diagnostics)."""
        with self._lock:
            return self._processes[0].popen.pid if self._processes else None

    def analyze(self, submission: Submission) -> list[Finding]:
        return self.hand_off(submission)()

    def hand_off(self, submission: Submission) -> Callable[[], list[Finding]]:
        """Give the code to the process if it is ready and idle, and return what waits for its
        answer; otherwise return the in-process reading."""
        code = submission.code
        process = self._take()
        if process is None:
            return lambda: self._analyzer.analyze(submission)
        data = code.encode("utf-8")
        deadline = time.monotonic() + max(self._deadline_s - 0.5, self._deadline_s / 2)
        if len(data) <= PIPE_HOLDS_BYTES:  # an idle process's pipe is empty: this write cannot block
            try:
                process.requests.send_bytes(data)
            except OSError:  # it had ended before it got the code: not this program's doing
                self._lose(process)
                return lambda: self._analyzer.analyze(submission)
            data = b""

        def findings() -> list[Finding]:
            # A write of big code into a process that stopped reading blocks: it ends at the
            # deadline, when the process is killed. (The wait for the answer has its own.)
            watchdog = threading.Timer(max(deadline - time.monotonic(), 0) + 0.1, process.popen.kill) if data else None
            if watchdog is not None:
                watchdog.daemon = True
                watchdog.start()
            try:
                if data:
                    process.requests.send_bytes(data)
                report = self._answer(process, deadline)
            except BaseException as exc:
                self._lose(process)
                if isinstance(exc, OSError):  # the write failed: the process ended while taking the code
                    raise BanditProcessFailed(f"Bandit's process ended while taking the code ({exc})") from None
                raise
            finally:
                if watchdog is not None:
                    watchdog.cancel()
            self._give_back(process)
            return self._analyzer.findings(report, code)

        return findings

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._finalizer()

    # -- the process's lifecycle ---------------------------------------------------------------

    def _take(self) -> _Process | None:
        with self._lock:
            if self._processes and not self._processes[0].busy:
                self._processes[0].busy = True
                return self._processes[0]
            return None

    def _give_back(self, process: _Process) -> None:
        with self._lock:
            process.busy = False

    def _lose(self, process: _Process) -> None:
        """The process failed: end it and start another."""
        with self._lock:
            if process in self._processes:
                self._processes.remove(process)
        process.end(at_once=True)
        self._start_in_background()

    def _start_in_background(self) -> None:
        with self._lock:
            if self._closed or self._starting or self._processes or self.disabled_reason:
                return
            self._starting = True
        threading.Thread(target=self._start, name="bandit-process-start", daemon=True).start()

    def _start(self) -> None:
        process: _Process | None = None
        try:
            process = _Process()
            process.wait_until_ready(START_TIMEOUT_S)
        except (OSError, EOFError, BanditProcessFailed) as exc:
            if process is not None:
                process.end(at_once=True)
            with self._lock:
                self._starting = False
                self._failed_starts += 1
                if self._failed_starts >= MAX_FAILED_STARTS:
                    self.disabled_reason = f"{type(exc).__name__}: {exc}"[:300]
            self._start_in_background()
            return
        with self._lock:
            self._starting = False
            self._failed_starts = 0
            if not self._closed:
                self._processes.append(process)
                return
        process.end()

    @staticmethod
    def _answer(process: _Process, deadline: float) -> BanditReport:
        remaining = deadline - time.monotonic()
        try:
            if not process.answers.poll(max(remaining, 0)):
                raise BanditProcessFailed("Bandit's process did not answer in time")
            data = process.answers.recv_bytes(MAX_ANSWER_BYTES)
        except EOFError:
            code = process.popen.poll()
            raise BanditProcessFailed(f"Bandit's process ended while reading the code (exit status {code})") from None
        except OSError as exc:  # a bad frame or one over the bound
            raise BanditProcessFailed(f"Bandit's process answered wrongly ({exc})") from None
        answer: Any = json.loads(data)
        if "error" in answer:
            raise BanditProcessFailed(f"Bandit failed: {str(answer['error'])[:200]}")
        return {"issues": list(answer["issues"]), "skipped": [str(reason) for reason in answer["skipped"]]}


def serve() -> int:
    """The process's side: load Bandit, say so, then answer each program until the pipe closes."""
    answers = Connection(os.dup(1), readable=False)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # nothing Bandit prints can be taken for an answer
    os.close(quiet)
    requests = Connection(os.dup(0), writable=False)
    scanner = BanditScanner()
    try:
        answers.send_bytes(_READY)
        while True:
            try:
                code = requests.recv_bytes(MAX_REQUEST_BYTES).decode("utf-8")
            except EOFError:
                return 0
            try:
                answer: dict[str, Any] = dict(scanner.scan(code))
            except Exception as exc:  # noqa: BLE001 - told to the owner, which fails closed
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            answers.send_bytes(json.dumps(answer).encode("utf-8"))
    except (BrokenPipeError, ConnectionResetError):  # the owner has gone
        return 0


if __name__ == "__main__":
    sys.exit(serve())
