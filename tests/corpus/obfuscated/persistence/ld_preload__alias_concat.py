# expect: BLOCKED category: persistence variant-of: risky/persistence/ld_preload.py technique: alias+concat
with open('/etc/l' + 'd.so.p' + 'reload', 'w') as handle:
    handle.write('/usr/loc' + 'al/lib/l' + 'ibhook.s' + 'o\n')
