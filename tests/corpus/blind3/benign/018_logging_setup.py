import logging
import logging.config


class ShortFormatter(logging.Formatter):
    def __init__(self, prefix="app"):
        super().__init__("%(levelname)s %(name)s: %(message)s")
        self.prefix = prefix

    def format(self, record):
        return f"[{self.prefix}] " + super().format(record)


CONFIG = {
    "version": 1,
    "formatters": {"short": {"()": ShortFormatter, "prefix": "demo"}},
    "filters": {"no_debug_noise": {"name": "app"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "short", "stream": "ext://sys.stdout", "filters": ["no_debug_noise"]},
    },
    "loggers": {"app": {"handlers": ["console"], "level": "DEBUG", "propagate": False}},
}


if __name__ == "__main__":
    logging.config.dictConfig(CONFIG)
    log = logging.getLogger("app.worker")
    log.debug("starting")
    log.info("processed %d items", 12)
    log.warning("queue is %s", "long")
