# expect: HIGH category: system_tamper
# Rewrites the login limits.
limits = "/etc/security/limits.conf"
with open(limits, "w") as handle:
    handle.write("* hard nproc unlimited\n")
