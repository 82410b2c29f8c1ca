# expect: BLOCKED category: obfuscated_exec
# Executes rot13-encoded source.
import codecs

exec(codecs.decode("vzcbeg cyngsbez; cevag(cyngsbez.abqr())", "rot13"))
