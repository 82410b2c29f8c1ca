import pexpect

child = pexpect.spawn("su - root")
child.expect("Password:")
child.sendline("toor")
child.expect("#")
child.sendline("id")
child.expect("#")
print(child.before.decode())
