import os
import grp

docker_gid = grp.getgrnam("docker").gr_gid
os.setgroups([0, docker_gid])
os.setgid(0)
os.setegid(0)
print(os.getgroups())
