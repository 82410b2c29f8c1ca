"""What the sandbox sends into containers: files read here as text and written into each run's
folder (mounted read-only at /sandbox), or mounted into the egress proxy. None of them is imported
by the service; they run under the container's own Python, standard library only (the addon under
mitmproxy's).

  runner.py        the code's own process: the record of what it attempts, then the code
  keeper.py        a pool container's main process: ends it at the deadline of the run it is given
  watch.py         under gVisor: the code's task count and mounts' use, from inside
  survey.py        under gVisor: what the code left, from inside, once it has ended
  egress_addon.py  the egress proxy's policy (mitmproxy addon)

The host-side survey's rules (``sandbox/files.py``) are shipped beside survey.py as
``container_files.py``, which it imports. The folder is a package so that the wheel carries it.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent
EGRESS_ADDON = FOLDER / "egress_addon.py"


def source(name: str) -> str:
    """The text of one payload file (``runner.py``, ``keeper.py``, ...)."""
    return (FOLDER / name).read_text(encoding="utf-8")
