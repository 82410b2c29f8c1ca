import logging
from logging.handlers import RotatingFileHandler
import os

os.makedirs("logs", exist_ok=True)
handler = RotatingFileHandler("logs/app.log", maxBytes=1_000_000, backupCount=3)
logging.basicConfig(level=logging.INFO, handlers=[handler])
log = logging.getLogger("app")
for i in range(10):
    log.info("processed batch %d", i)
