# expect: HIGH category: privileged
# Turns on IP forwarding.
with open("/proc/sys/net/ipv4/ip_forward", "w") as handle:
    handle.write("1")
