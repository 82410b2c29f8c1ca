"""Configure logging from a dict, using a custom formatter class through the '()' factory key."""
import logging
import logging.config


class UpperFormatter(logging.Formatter):
    def format(self, record):
        return super().format(record).upper()


CONFIG = {
    "version": 1,
    "formatters": {"loud": {"()": "__main__.UpperFormatter", "fmt": "%(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "loud", "stream": "ext://sys.stdout"}},
    "root": {"level": "INFO", "handlers": ["console"]},
}


def main():
    logging.config.dictConfig(CONFIG)
    logging.getLogger("app").info("configured from dict")
    logging.getLogger("app.db").warning("slow query")


if __name__ == "__main__":
    main()
