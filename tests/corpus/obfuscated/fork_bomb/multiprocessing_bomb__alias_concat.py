# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/multiprocessing_bomb.py technique: alias+concat
import multiprocessing as _m0

def spin():
    while True:
        pass
if __name__ == '__' + 'ma' + 'in' + '__':
    while True:
        _m0.Process(target=spin).start()
