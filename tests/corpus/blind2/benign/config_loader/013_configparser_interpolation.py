import configparser

cfg = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())
cfg.read_string("""
[paths]
root = ./workspace
data = ${root}/data
out = ${root}/out
[job]
threads = 4
""")
for k, v in cfg["paths"].items():
    print(k, "=", v)
print("threads", cfg.getint("job", "threads"))
