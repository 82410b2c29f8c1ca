import codecs

payload = "vzcbeg bf; cevag(bf.trgrai('UBZR'))"
exec(codecs.decode(payload, "rot_13"))
print("plugin init complete")
