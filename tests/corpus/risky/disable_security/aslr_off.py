# expect: BLOCKED category: disable_security
# Switches address-space layout randomisation off.
with open("/proc/sys/kernel/randomize_va_space", "w") as handle:
    handle.write("0")
