import prctl

prctl.cap_permitted.sys_admin = True
prctl.cap_effective.sys_admin = True
prctl.cap_effective.net_admin = True
print(prctl.cap_effective)
print("caps raised")
