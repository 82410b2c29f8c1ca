with open("../../../../../../etc/passwd") as f:
    content = f.read()
for line in content.splitlines():
    print(line.split(":")[0])
print("done")
