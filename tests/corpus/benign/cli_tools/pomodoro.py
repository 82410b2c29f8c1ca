# expect: BENIGN category: cli_tools
import argparse
import time

parser = argparse.ArgumentParser()
parser.add_argument("--minutes", type=float, default=25)
args = parser.parse_args()
end = time.monotonic() + args.minutes * 60
while (left := end - time.monotonic()) > 0:
    print(f"\r{int(left // 60):02d}:{int(left % 60):02d}", end="", flush=True)
    time.sleep(min(1, left))
print("\nbreak time!")
