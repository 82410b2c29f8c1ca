"""Semgrep, driven through its bundled engine ``semgrep-core`` with our own rules (policies/semgrep/).

Why not the ``semgrep`` command: it is a Python program that starts the same engine after ~1.5 s
of its own start-up. Calling ``semgrep-core -rules FILE -lang python -json TARGET`` directly costs
one engine start (~0.1 s for the binary, ~0.05 s more to load our rules) plus the scan itself.

Why a warm engine: the engine's start-up is most of that cost, and semgrep-core (1.182) then does
more work lazily on its first target, in every process (~15 ms of a ~20 ms scan: compiling the
rules' string and regex patterns, setting up the taint rules), whatever the target's length. So we
start one process ahead of time whose target list names two files: a warm-up program of our own,
then the slot for the code, which is, for now, a second name of a named pipe. The engine loads the
rules, scans the warm-up program (paying that first-target work), then blocks opening the slot. A
scan atomically replaces the slot's path by a regular file holding the code (the engine may open
that path again, and then reads the file), and writes the same code into the pipe for the open
that is already waiting. It pays only for the scan proper: a few ms for hello world, where the
engine started cold takes ~0.17 s and one that only loaded its rules ~20 ms (see
bench/assess_bench.py). If the engine has not reached its open yet it simply reads the regular
file. The warm-up program's results are never read: only the slot's are. A batch of several
programs is scanned by a cold engine. Anything unexpected on this path (a non-zero exit, output
that is not JSON, the slot missing from ``paths.scanned``) falls back to a cold run, and after two
such failures the warm path is switched off for the analyzer's lifetime (``warm_disabled_reason``
says why). The waiting process is wrapped in ``timeout`` where available, so that it cannot outlive
us by more than SPARE_MAX_AGE_S if we are killed without a chance to clean up, and started through
``setpriv --pdeathsig TERM`` where that exists, so that it ends as soon as we do: a killed service
left its waiting engines (~110 MiB each) for those five minutes. The parent that signal watches is
the thread that started the process, so every waiting engine, the first included, is started by the
one thread that lives as long as the analyzer (``_replace_spares``).

Errors of the engine are mapped to ours: an unusable rule is a ConfigurationError naming the rule
file and id (``check_rules``); anything else raises SemgrepFailed, which the AnalyzerSuite turns
into a finding at the failure level (fail closed). A target the engine could only partly parse is
a finding of its own at the failure level.
"""

from __future__ import annotations

import ast
import fcntl
import functools
import importlib.util
import json
import os
import select
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.errors import MaiSafetyError
from mai_safety.domain.levels import RiskLevel

from .child_environment import environment_without_secrets
from .policy import SemgrepPolicy

SPARE_MAX_AGE_S = 300.0
#: How long after a scan the next waiting engine is started (see _replace_spares).
SPARE_DELAY_S = 0.1
_WARM_FAILURES_BEFORE_COLD = 2


class SemgrepFailed(MaiSafetyError):
    """The engine did not produce a usable answer; the suite turns this into a finding."""


def find_engine() -> Path:
    spec = importlib.util.find_spec("semgrep")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        candidate = Path(location) / "bin" / "semgrep-core"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise ConfigurationError(
        "semgrep-core, the engine bundled with the semgrep package, was not found"
        + (f" in {locations[0]}/bin" if locations else "")
        + ": install the project's dependencies again (.venv/bin/pip install -e .)"
    )


#: What a waiting engine scans before the code, so that the first target's lazy work (above) is
#: done while nobody waits. Its results are never read. Any small program would do; this one has
#: the kinds of thing the rules look at (strings, calls, imports, a flow from a read to a call).
_WARM_UP = """import os, subprocess, urllib.request
name = "report.txt"
text = open(name).read()
subprocess.run(["echo", text], check=False)
urllib.request.urlopen("http://192.0.2.1/", data=text.encode())
print(f"{name}: {len(text)}", os.getcwd())
"""


class _Spare:
    """An engine process that has loaded the rules, scanned the warm-up program, and waits to open
    its second target, ``slot``: until a scan, a second name (a hard link) of the pipe ``fifo``.
    Everything it was given lives in ``folder``, which goes with it."""

    def __init__(self, folder: Path, base_command: list[str], timeout_wrapper: str | None, death_signal: str | None) -> None:
        """Lay out ``folder`` (the warm-up program, the pipe, the slot, the target list) and start
        the engine on it, under ``timeout_wrapper`` (``timeout -s KILL``) when there is one, and
        through ``death_signal`` (``setpriv``: TERM to the wrapper, which passes it on, when the
        starting thread ends) when there is one."""
        self.folder = folder
        self.fifo = folder / "pipe"
        self.slot = folder / "s0.py"
        warm_up = folder / "warm-up.py"
        warm_up.write_text(_WARM_UP, encoding="utf-8")
        os.mkfifo(self.fifo, 0o600)
        os.link(self.fifo, self.slot)
        targets = folder / "targets.json"
        targets.write_bytes(_target_list([warm_up, self.slot]))
        command = [*base_command, "-targets", str(targets)]
        if timeout_wrapper:
            command = [timeout_wrapper, "-s", "KILL", str(int(SPARE_MAX_AGE_S)), *command]
        if death_signal:
            command = [death_signal, "--pdeathsig", "TERM", *command]
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            env=environment_without_secrets(),
        )

    def fresh(self) -> bool:
        return self.process.poll() is None and time.monotonic() - self.started < SPARE_MAX_AGE_S - 10

    def kill(self) -> None:
        _kill_group(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)


@functools.lru_cache(maxsize=1)
def _death_signal_wrapper() -> str | None:
    """``setpriv`` if it is here and takes ``--pdeathsig`` (util-linux 2.33 and later), else None."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    try:
        done = subprocess.run([setpriv, "--pdeathsig", "TERM", "true"], capture_output=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return setpriv if done.returncode == 0 else None


def _replace_spares(analyzer: "weakref.ref[SemgrepAnalyzer]", wanted: threading.Event, started: threading.Event) -> None:
    """Start the first waiting engine at once (``started`` then), and each next one SPARE_DELAY_S
    after a scan took one, not at once: loading the rules costs ~0.1 s of a core, which would
    otherwise be taken from the run of the code the scan just judged (measured on 2 cores: a pooled
    hello world 25 ms beside it, 19 ms after it). Ends with the analyzer, and every engine it
    started ends with it (the module's docstring: ``--pdeathsig``); a failed start does not end it."""
    while True:
        live = analyzer()
        if live is None:
            started.set()
            return
        try:
            live._ensure_spare()
        except Exception:  # noqa: BLE001 - this thread must outlive a failed start: its engines end with it
            pass
        del live
        started.set()
        while not wanted.wait(timeout=5.0):
            if analyzer() is None:
                return
        time.sleep(SPARE_DELAY_S)
        wanted.clear()


def _reap_beside(end: Callable[[], None]) -> None:
    """``end`` (kill and reap) an engine that has answered, on a thread of its own: it still takes
    ~7 ms to exit (the kernel unmaps its heap), which nobody needs to wait for."""
    threading.Thread(target=end, name="semgrep-reap", daemon=True).start()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        process.communicate(timeout=5)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        # The scan's own thread may be reading the pipes at the same moment (a caller that gave up
        # waiting closes the analyzer): reap the process all the same, or it stays a zombie.
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def _cleanup(spares: list[_Spare], running: set[subprocess.Popen[bytes]], workdir: Path) -> None:
    for spare in spares:
        spare.kill()
    spares.clear()
    for process in list(running):  # scans still under way (a caller gave up waiting): stop them too
        _kill_group(process)
    shutil.rmtree(workdir, ignore_errors=True)


_WORKDIR_PREFIX = "mai-semgrep-"


def remove_stale_workdirs() -> None:
    """Remove the private folders (0700: the rules and copies of code being scanned) that killed
    processes of this user's left behind; a folder's name carries the pid that made it."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_WORKDIR_PREFIX}*"):
        pid_text = folder.name[len(_WORKDIR_PREFIX):].split("-", 1)[0]
        try:
            status = folder.lstat()
            if folder.is_symlink() or status.st_uid != os.getuid():
                continue
            if pid_text.isdigit():
                os.kill(int(pid_text), 0)
                continue  # its process lives
            if time.time() - status.st_mtime < 3600:
                continue  # an older release's name, no pid in it: only once it is an hour old
        except ProcessLookupError:
            pass
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)


class SemgrepAnalyzer:
    name = "semgrep"

    def __init__(
        self,
        policy: SemgrepPolicy,
        *,
        failure_level: RiskLevel = RiskLevel.MEDIUM,
        engine: Path | None = None,
        warm: bool | None = None,
    ) -> None:
        self._policy = policy
        self._failure_level = max(failure_level, RiskLevel.MEDIUM)
        self._engine = engine or find_engine()
        remove_stale_workdirs()
        self._workdir = Path(tempfile.mkdtemp(prefix=f"{_WORKDIR_PREFIX}{os.getpid()}-"))
        self._rules_file = self._workdir / "rules.yaml"
        # libyaml's dumper where there is one: the pure-Python one takes 0.15 s here, on every start.
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        rules = yaml.dump({"rules": list(policy.rule_documents)}, Dumper=dumper, sort_keys=False)
        self._rules_file.write_text(rules, encoding="utf-8")
        self._timeout_wrapper = shutil.which("timeout")
        self._warm = policy.warm_engine if warm is None else warm
        self._warm_failures = 0
        self.warm_disabled_reason = ""
        self._lock = threading.Lock()
        self._spares: list[_Spare] = []
        self._running: set[subprocess.Popen[bytes]] = set()
        self._finalizer = weakref.finalize(self, _cleanup, self._spares, self._running, self._workdir)
        self._spare_wanted = threading.Event()
        self._death_signal = _death_signal_wrapper() if self._warm else None  # only waiting engines need it
        if self._warm:
            started = threading.Event()
            threading.Thread(
                target=_replace_spares, args=(weakref.ref(self), self._spare_wanted, started), name="semgrep-spares", daemon=True
            ).start()
            started.wait(timeout=10.0)  # as before: the first engine is on its way when the analyzer is

    # ---- public -----------------------------------------------------------------------------

    @property
    def warm(self) -> bool:
        return self._warm

    def analyze(self, submission: Submission) -> list[Finding]:
        return self.hand_off(submission)()

    def hand_off(self, submission: Submission) -> Callable[[], list[Finding]]:
        """Hand the code to a waiting engine now, and return what waits for its findings. The
        hand-off is a file write and a non-blocking open of a pipe: the suite makes it before the
        analyzers that share the interpreter start, so that the engine works beside them instead of
        waiting for the interpreter's lock to stage the code (measured: the code reached the engine
        18 ms late, after Bandit and the AST analysis had finished). With no waiting engine the
        returned call scans cold."""
        if _too_deep_to_parse(submission.code):
            return lambda: [self._skipped()]
        spare = self._take_spare() if self._warm else None
        if spare is None:
            return lambda: self._then_a_spare(lambda: self._cold_scan([submission])[0])
        try:
            stop = self._give(spare, submission.code)
        except OSError as exc:  # the folder is gone, no room: what a failed warm scan is
            _reap_beside(spare.kill)
            failure = SemgrepFailed(f"the code could not be handed to the waiting engine: {exc}")
            return lambda: self._then_a_spare(lambda: self._cold_after(failure, submission))

        def findings() -> list[Finding]:
            try:
                output = self._take(spare, stop)
            except SemgrepFailed as exc:
                return self._cold_after(exc, submission)
            self._warm_failures = 0
            return self._findings(output, [submission], [spare.slot])[0]

        return lambda: self._then_a_spare(findings)

    def analyze_many(self, submissions: list[Submission]) -> list[list[Finding]]:
        """Findings per submission, in order: one program on a waiting engine, several in one
        engine run."""
        if len(submissions) == 1:
            return [self.analyze(submissions[0])]
        hopeless = [index for index, submission in enumerate(submissions) if _too_deep_to_parse(submission.code)]
        scanned = [submission for index, submission in enumerate(submissions) if index not in hopeless]
        found = iter(self._then_a_spare(lambda: self._cold_scan(scanned)) if scanned else [])
        return [[self._skipped()] if index in hopeless else next(found) for index in range(len(submissions))]

    def _then_a_spare(self, scan: Callable[[], Any]) -> Any:
        try:
            return scan()
        finally:
            if self._warm:
                self._spare_wanted.set()  # the next engine starts shortly after (_replace_spares)

    def _cold_after(self, failure: SemgrepFailed, submission: Submission) -> list[Finding]:
        """A warm scan failed: count it (two in a row switch the warm path off) and scan cold."""
        self._warm_failures += 1
        if self._warm_failures >= _WARM_FAILURES_BEFORE_COLD:
            self._warm = False
            self.warm_disabled_reason = str(failure)
            self._drop_spares()
        return self._cold_scan([submission])[0]

    def _cold_scan(self, submissions: list[Submission]) -> list[list[Finding]]:
        batch = self._workdir / f"scan-{uuid.uuid4().hex}"
        batch.mkdir()
        try:
            paths = []
            for index, submission in enumerate(submissions):
                path = batch / f"s{index}.py"
                path.write_text(submission.code, encoding="utf-8")
                paths.append(path)
            return self._findings(self._cold_run(paths), submissions, paths)
        finally:
            shutil.rmtree(batch, ignore_errors=True)

    def _skipped(self) -> Finding:
        return Finding(
            analyzer=self.name,
            rule_id="semgrep-skipped",
            level=self._failure_level,
            message="the code nests expressions so deeply that Python's own parser gives up, and Semgrep's runs past its "
            "time limit on such code; it was not scanned by Semgrep - flatten the deepest expression",
            severity="WARNING",
            confidence="HIGH",
        )

    def check_rules(self) -> None:
        """Have the engine load every rule; an unusable one is a ConfigurationError naming it."""
        probe = self._workdir / "probe.py"
        probe.write_text("x = 1\n", encoding="utf-8")
        try:
            output = self._cold(["-lang", "python", str(probe)])
        except SemgrepFailed as exc:
            raise ConfigurationError(f"{exc}: check that the semgrep package is installed and its engine runs") from None
        finally:
            probe.unlink(missing_ok=True)
        for error in output.get("errors", []):
            if self._is_rule_error(error):
                raise ConfigurationError(self._rule_error_text(error))

    def close(self) -> None:
        with self._lock:
            self._finalizer()

    # ---- running the engine -----------------------------------------------------------------

    def _base_command(self) -> list[str]:
        return [
            str(self._engine), "-rules", str(self._rules_file), "-json", "-j", "1",
            "-timeout", str(self._policy.per_rule_timeout_s), "-max_memory", str(self._policy.max_memory_mb),
        ]

    def _cold_run(self, paths: list[Path]) -> dict[str, Any]:
        if len(paths) == 1:
            output = self._cold(["-lang", "python", str(paths[0])])
        else:  # the engine takes one target with -lang, or a list of them with -targets
            targets = paths[0].parent / "targets.json"
            targets.write_bytes(_target_list(paths))
            output = self._cold(["-targets", str(targets)], len(paths))
        self._fail_on_rule_errors(output)
        self._check_scanned(output, paths)
        return output

    def _cold(self, arguments: list[str], targets: int = 1) -> dict[str, Any]:
        process = subprocess.Popen(
            [*self._base_command(), *arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            env=environment_without_secrets(),
        )
        try:
            return self._answer(process, targets)
        finally:
            _reap_beside(lambda: _kill_group(process))

    def _give(self, spare: _Spare, code: str) -> threading.Event:
        """Hand ``code`` to the waiting engine; the returned event ends the offer (``_take``)."""
        payload = code.encode("utf-8")
        # From now on the slot's path is a regular file holding the code: any later open of it
        # reads the file. The pipe keeps its own name, for the open already waiting.
        staged = spare.folder / "s0.staged"
        staged.write_bytes(payload)
        os.replace(staged, spare.slot)
        stop = threading.Event()
        fd = _open_pipe(spare.fifo)
        if fd is not None and _fits(fd, payload):
            _write_all(fd, payload)
            return stop
        # Otherwise from a thread of its own: an engine not yet at its open, or code longer than the
        # pipe holds (written only as fast as the engine reads); an engine that stops reading must
        # not hold the caller past the scan's deadline (``_answer`` kills it then, and the write
        # ends with EPIPE).
        threading.Thread(target=_serve_pipe, args=(spare, payload, stop, fd), daemon=True, name="semgrep-code").start()
        return stop

    def _take(self, spare: _Spare, stop: threading.Event) -> dict[str, Any]:
        """The waiting engine's answer on the code it was given; it is reaped beside."""
        try:
            output = self._answer(spare.process)
        finally:
            stop.set()
            _reap_beside(spare.kill)
        self._fail_on_rule_errors(output)
        self._check_scanned(output, [spare.slot])
        return output

    def _answer(self, process: subprocess.Popen[bytes], targets: int = 1) -> dict[str, Any]:
        """The engine's answer as soon as its JSON document is whole on its output (it writes it
        last, then exits); otherwise, once it ended, what its exit and output say (a failure, a
        timeout: SemgrepFailed). The caller reaps it (``_reap_beside``). The engine has the
        policy's ``timeout_s`` per target, as the suite's deadline is per submission."""
        assert process.stdout is not None and process.stderr is not None
        bound_s = self._policy.timeout_s * max(targets, 1)
        deadline = time.monotonic() + bound_s
        read: dict[int, bytearray] = {process.stdout.fileno(): bytearray(), process.stderr.fileno(): bytearray()}
        out = read[process.stdout.fileno()]
        self._running.add(process)
        try:
            with selectors.DefaultSelector() as waiting:
                for fd in read:
                    waiting.register(fd, selectors.EVENT_READ)
                while waiting.get_map():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        _kill_group(process)
                        raise SemgrepFailed(f"semgrep-core did not finish within {bound_s:g} s")
                    for key, _events in waiting.select(left):
                        chunk = os.read(key.fd, 1 << 16)
                        if not chunk:
                            waiting.unregister(key.fd)
                            continue
                        read[key.fd] += chunk
                        if key.fd == process.stdout.fileno() and chunk.rstrip().endswith(b"}"):
                            whole = _whole_answer(bytes(out))
                            if whole is not None:
                                return whole
            process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            _kill_group(process)
            raise SemgrepFailed(f"semgrep-core did not finish within {bound_s:g} s") from None
        finally:
            self._running.discard(process)
        return self._parsed(process.returncode, bytes(out), bytes(read[process.stderr.fileno()]))

    @staticmethod
    def _parsed(returncode: int | None, stdout: bytes, stderr: bytes) -> dict[str, Any]:
        text = stdout.decode("utf-8", "replace")
        start = text.find("{")
        if returncode != 0 or start < 0:
            last = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {returncode}"]
            raise SemgrepFailed(f"semgrep-core failed (exit status {returncode}): {last[0][:200]}")
        try:
            output = json.loads(text[start:])
        except json.JSONDecodeError as exc:
            raise SemgrepFailed(f"semgrep-core's output is not JSON ({exc.msg} at {exc.pos})") from None
        if not isinstance(output, dict) or not isinstance(output.get("results"), list):
            raise SemgrepFailed("semgrep-core's output has no results list")
        return output

    def _fail_on_rule_errors(self, output: dict[str, Any]) -> None:
        for error in output.get("errors", []):
            if self._is_rule_error(error):
                raise SemgrepFailed(self._rule_error_text(error))

    @staticmethod
    def _check_scanned(output: dict[str, Any], paths: list[Path]) -> None:
        scanned = set(output.get("paths", {}).get("scanned", []))
        errored = {str(e.get("location", {}).get("path", "")) for e in output.get("errors", [])}
        missing = [p for p in paths if str(p) not in scanned and str(p) not in errored]
        if missing:
            raise SemgrepFailed(f"semgrep-core did not scan {len(missing)} of {len(paths)} target(s)")

    # ---- the spare engine -------------------------------------------------------------------

    def _spawn_spare(self) -> _Spare:
        folder = self._workdir / f"scan-spare-{uuid.uuid4().hex}"
        folder.mkdir()
        return _Spare(folder, self._base_command(), self._timeout_wrapper, self._death_signal)

    def _ensure_spare(self) -> None:
        with self._lock:
            if not self._warm or not self._finalizer.alive:
                return
            for spare in [s for s in self._spares if not s.fresh()]:
                spare.kill()
                self._spares.remove(spare)
            while len(self._spares) < self._policy.warm_engines:
                try:
                    self._spares.append(self._spawn_spare())
                except OSError as exc:  # no fork, no FIFO: scan cold from now on
                    self._warm = False
                    self.warm_disabled_reason = f"cannot start a waiting engine: {exc}"
                    return

    def _take_spare(self) -> _Spare | None:
        with self._lock:
            while self._spares:
                spare = self._spares.pop()
                if spare.fresh():
                    return spare
                spare.kill()
        return None

    def _drop_spares(self) -> None:
        with self._lock:
            for spare in self._spares:
                spare.kill()
            self._spares.clear()

    # ---- results ----------------------------------------------------------------------------

    def _is_rule_error(self, error: dict[str, Any]) -> bool:
        """A rule the engine cannot use, as opposed to a target it could not fully scan (which
        also names a rule id when one rule timed out on it)."""
        kind = json.dumps(error.get("error_type", ""))
        path = str(error.get("location", {}).get("path", ""))
        return path == str(self._rules_file) or ("Rule" in kind or "rule" in kind) and not path.startswith(str(self._workdir / "scan-"))

    def _rule_error_text(self, error: dict[str, Any]) -> str:
        rule_id = str(error.get("rule_id", ""))
        info = self._policy.rules.get(rule_id)
        where = f"policy file {info.file}: rule {rule_id}" if info else f"policy folder {self._policy.rule_files[0].parent}"
        message = " ".join(str(error.get("message", "")).split())[:300]
        return f"{where}: Semgrep cannot use this rule ({message}); fix the pattern"

    def _subsumers(self, rule_id: str) -> tuple[str, ...]:
        info = self._policy.rules.get(rule_id)
        return info.subsumed_by if info is not None else ()

    def _findings(self, output: dict[str, Any], submissions: list[Submission], paths: list[Path]) -> list[list[Finding]]:
        index_of = {str(path): i for i, path in enumerate(paths)}
        per: list[list[Finding]] = [[] for _ in submissions]
        seen: set[tuple[int, str, int, int]] = set()
        lines_cache: dict[int, list[str]] = {}
        for result in output["results"]:
            index = index_of.get(str(result.get("path")))
            if index is None:
                continue
            rule_id = str(result.get("check_id", "")).rsplit(".", 1)[-1]
            line = int(result.get("start", {}).get("line", 0) or 0)
            column = max(int(result.get("start", {}).get("col", 1) or 1) - 1, 0)
            key = (index, rule_id, line, 0)  # one finding per rule and line: repeats on a line add nothing
            if key in seen:
                continue
            seen.add(key)
            extra = result.get("extra", {})
            info = self._policy.rules.get(rule_id)
            severity = str(extra.get("severity", info.severity if info else ""))
            lines = lines_cache.setdefault(index, submissions[index].code.splitlines())
            per[index].append(
                Finding(
                    analyzer=self.name,
                    rule_id=rule_id,
                    level=self._policy.level_for(rule_id, severity, submissions[index].provenance),
                    message=" ".join(str(extra.get("message", "")).split()),
                    line=line,
                    column=column,
                    snippet=lines[line - 1].strip()[:200] if 0 < line <= len(lines) else "",
                    severity=severity,
                    confidence=info.confidence if info else "",
                    cwe=info.cwe if info else "",
                )
            )
        for index, found in enumerate(per):  # a weaker view of a flow a stronger rule reported on the same line
            fired = {(f.rule_id, f.line) for f in found}
            per[index] = [f for f in found if not any((other, f.line) in fired for other in self._subsumers(f.rule_id))]
        for error in output.get("errors", []):
            index = index_of.get(str(error.get("location", {}).get("path", "")))
            if index is None:
                continue
            kind = error.get("error_type")
            kind_name = kind[0] if isinstance(kind, list) and kind else str(kind)
            line = int(error.get("location", {}).get("start", {}).get("line", 0) or 0)
            rule_id = "semgrep-timeout" if "imeout" in kind_name or "emory" in kind_name else "semgrep-parse-error"
            if any(f.rule_id == rule_id for f in per[index]):
                continue
            per[index].append(
                Finding(
                    analyzer=self.name,
                    rule_id=rule_id,
                    level=self._failure_level,
                    message=f"Semgrep could not fully check the code ({kind_name} near line {line}); the rest of the code was "
                    "checked by the other analyzers - fix the syntax so that every analyzer reads all of it",
                    line=line,
                    severity="WARNING",
                    confidence="HIGH",
                )
            )
        return per


def _whole_answer(stdout: bytes) -> dict[str, Any] | None:
    """The engine's JSON document if ``stdout`` holds all of it (progress dots may come first)."""
    start = stdout.find(b"{")
    if start < 0:
        return None
    try:
        output = json.loads(stdout[start:])
    except ValueError:
        return None  # not whole yet
    return output if isinstance(output, dict) and isinstance(output.get("results"), list) else None


def _target_list(paths: list[Path]) -> bytes:
    """The engine's list of targets (the format semgrep passes with -targets)."""
    targets = [["CodeTarget", {"path": {"fpath": str(p), "ppath": "/" + p.name}, "analyzer": "python", "products": ["sast"]}]
               for p in paths]
    return json.dumps(["Targets", targets]).encode("utf-8")


def _too_deep_to_parse(code: str) -> bool:
    """Whether Python's parser gives up on the nesting (RecursionError/MemoryError). Only code with
    a very long line can nest that deep, so other code does not pay for a second parse."""
    if max(map(len, code.splitlines()), default=0) < 4000:
        return False
    try:
        compile(code, "<submission>", "exec", ast.PyCF_ONLY_AST)
    except (RecursionError, MemoryError):
        return True
    except (SyntaxError, ValueError):
        return False
    return False


def _open_pipe(fifo: Path) -> int | None:
    """The pipe's writing end, if an engine is blocked opening it for reading; None otherwise."""
    try:
        return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:  # ENXIO: no reader has the pipe open
        return None


def _fits(fd: int, payload: bytes) -> bool:
    """Whether ``payload`` fits the empty pipe at once (the write will not wait for the reader)."""
    try:
        return len(payload) <= fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    except OSError:
        return len(payload) <= select.PIPE_BUF


def _write_all(fd: int, payload: bytes) -> None:
    """Write the code into the pipe and close it; long code is written as fast as the engine reads."""
    try:
        os.set_blocking(fd, True)
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
    except OSError:  # the engine went away mid-way: the scan will report it
        pass
    finally:
        os.close(fd)


def _serve_pipe(spare: _Spare, payload: bytes, stop: threading.Event, fd: int | None) -> None:
    """Write the code into the pipe ``fd`` if it is open; otherwise offer it until the engine
    opens the pipe, or exits (having read the file), or the scan is over."""
    while fd is None:
        if stop.is_set() or spare.process.poll() is not None:
            return
        time.sleep(0.001)
        fd = _open_pipe(spare.fifo)
    _write_all(fd, payload)
