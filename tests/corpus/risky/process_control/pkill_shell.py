# expect: HIGH category: process_control
# Stops every cron process.
import os

os.system("pkill -9 cron")
