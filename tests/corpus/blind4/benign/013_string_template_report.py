"""Render a plain-text report with string.Template."""
import string

REPORT = string.Template("Report for $team\n  open: $open\n  closed: $closed\n  ratio: ${ratio}%\n")


def main():
    for team, opened, closed in [("core", 12, 30), ("web", 4, 9)]:
        print(REPORT.substitute(team=team, open=opened, closed=closed, ratio=round(100 * closed / (opened + closed))))
    print(REPORT.safe_substitute(team="unknown"))


if __name__ == "__main__":
    main()
