import pexpect

child = pexpect.spawn("python3 -i", encoding="utf-8")
child.expect(">>> ")
child.sendline("2 + 40")
child.expect(">>> ")
print("answer:", child.before.strip().splitlines()[-1])
child.terminate(force=True)
