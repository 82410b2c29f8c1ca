# expect: HIGH category: sensitive_copy
# Duplicates the account database by reading it and writing it out.
source = "/etc/passwd"
with open(source) as original:
    content = original.read()
with open("accounts_backup.txt", "w") as copy:
    copy.write(content)
