"""The audit report's usage figures against runs whose CPU use is known (issue 24, item 6): a busy
loop under a 1-CPU quota used one CPU, an idle sleep almost none. The chart draws what it is given
(charts.usage_shares), over the interval it names; the container's CPU time from before the code
began is never divided by the code's duration (hello world was charted at 135-170 % of its CPU)."""

from __future__ import annotations

from datetime import datetime, timezone

from mai_safety.application.audit_figures import anchor_from
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.limits import RequestedLimits
from mai_safety.infrastructure.bootstrap import read_models
from mai_safety.infrastructure.reports.charts import usage_shares

BUSY = b"import time\nend = time.monotonic() + 2.5\nwhile time.monotonic() < end:\n    pass\n"
IDLE = b"import time\ntime.sleep(2.5)\n"
HELLO = b"print('hello, world')\n"


def test_the_chart_shows_a_busy_loop_at_most_at_its_cpu_limit_an_idle_sleep_near_zero_and_hello_world_under_it(
    app: MaiSafety,
) -> None:
    one_cpu = RequestedLimits(cpus=1.0)
    ran = {name: app.run(code, requested=one_cpu) for name, code in (("busy", BUSY), ("idle", IDLE), ("hello", HELLO))}
    assert all(report.status == "completed" for report in ran.values()), {name: report.status for name, report in ran.items()}
    models = read_models(app)
    report = models.report(anchor_from(app.verify()), None, None, datetime.now(timezone.utc))
    shares = usage_shares(report.usage_against_limits)
    cpu = {run.execution_id: share for run, share in zip(report.usage_against_limits, shares["CPU"])}
    busy, idle, hello = (cpu[str(ran[name].execution_id)] for name in ("busy", "idle", "hello"))
    print(f"\nCPU charted: busy loop {busy}, idle sleep {idle}, hello world {hello} (% of the granted CPU)")
    assert busy is not None and 80 <= busy <= 105, busy
    assert idle is not None and idle <= 10, idle
    assert hello is None or hello <= 105, hello  # under a second: no window, so no CPU figure
    for name, values in shares.items():
        assert all(value is None or value <= 105 for value in values), (name, values)
    ending = app.history(str(ran["busy"].execution_id))[-1]
    assert ending["outcome"]["peaks"]["cpu_percent_window_s"] == 1.0  # the recorded peak states its interval
    assert ending["outcome"]["peaks"]["cpu_percent"] <= 105
