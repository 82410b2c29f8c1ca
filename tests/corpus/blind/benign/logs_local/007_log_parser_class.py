import re
from dataclasses import dataclass
from datetime import datetime


@dataclass
class Entry:
    ts: datetime
    level: str
    msg: str


class LogParser:
    RX = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}),\d+ (\w+) (.*)$")

    def parse(self, path):
        with open(path) as fh:
            for line in fh:
                m = self.RX.match(line)
                if m:
                    yield Entry(datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S"), m[2], m[3])


entries = list(LogParser().parse("debug.log"))
print(len(entries), "entries;", sum(e.level == "ERROR" for e in entries), "errors")
