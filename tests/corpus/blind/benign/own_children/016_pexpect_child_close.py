import pexpect

child = pexpect.spawn("python3", ["-i"], encoding="utf-8")
child.expect(">>> ")
child.sendline("print(2 ** 10)")
child.expect(">>> ")
print(child.before.strip())
child.terminate(force=True)
print("child alive?", child.isalive())
