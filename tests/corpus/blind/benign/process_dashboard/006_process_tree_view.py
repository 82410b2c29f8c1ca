import psutil

def show(proc, depth=0):
    try:
        print("  " * depth + f"{proc.pid} {proc.name()}")
        for child in proc.children():
            show(child, depth + 1)
    except psutil.NoSuchProcess:
        pass

me = psutil.Process()
show(me.parent() or me)
