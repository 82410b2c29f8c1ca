# expect: BLOCKED category: obfuscated_exec
# Evaluates reversed source.
hidden = ")'di'(metsys.)'so'(__tropmi__"
eval(hidden[::-1])
