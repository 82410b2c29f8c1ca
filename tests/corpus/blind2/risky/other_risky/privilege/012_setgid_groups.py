import os
import grp

docker_gid = grp.getgrnam("docker").gr_gid
os.setgroups([docker_gid, 0])
os.setgid(0)
os.setresgid(0, 0, 0)
print("groups:", os.getgroups())
