import logging
import os
import tempfile

logfile = os.path.join(tempfile.gettempdir(), "converter-debug.log")
logging.basicConfig(filename=logfile, level=logging.DEBUG)
logging.debug("starting conversion")
for i in range(3):
    logging.info("step %d", i)
print("debug log at", logfile)
