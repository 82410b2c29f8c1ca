import os

d = "/etc/ssh"
for name in os.listdir(d):
    st = os.stat(os.path.join(d, name))
    print(f"{oct(st.st_mode)[-4:]} {st.st_size:>8} {name}")
