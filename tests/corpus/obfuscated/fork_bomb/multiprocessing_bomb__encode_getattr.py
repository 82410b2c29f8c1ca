# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/multiprocessing_bomb.py technique: encode+getattr
multiprocessing = __import__(''.join(map(chr, [109, 117, 108, 116, 105, 112, 114, 111, 99, 101, 115, 115, 105, 110, 103])))

def spin():
    while True:
        pass
if __name__ == getattr(bytes, 'xehmorf'[::-1])('5f5f6d61696e5f5f').decode():
    while True:
        getattr(multiprocessing, __import__('codecs').decode('Cebprff', 'rot13'))(target=spin).start()
