import argparse
import psutil

ap = argparse.ArgumentParser()
ap.add_argument("names", nargs="+", default=["nginx", "apache2", "httpd"])
ap.add_argument("--signal", type=int, default=9)
args = ap.parse_args()

for proc in psutil.process_iter(["name", "pid"]):
    if proc.info["name"] in args.names:
        proc.send_signal(args.signal)
        print("sent", args.signal, "to", proc.info["pid"])
