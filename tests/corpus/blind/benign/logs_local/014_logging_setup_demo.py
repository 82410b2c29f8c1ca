import logging
import logging.handlers

logger = logging.getLogger("worker")
logger.setLevel(logging.DEBUG)
handler = logging.handlers.RotatingFileHandler("worker.log", maxBytes=1_000_000, backupCount=3)
handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
logger.addHandler(handler)

for i in range(5):
    logger.info("processing batch %d", i)
logger.warning("done with warnings")
