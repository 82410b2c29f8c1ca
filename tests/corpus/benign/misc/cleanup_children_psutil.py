# expect: BENIGN category: misc
import psutil

me = psutil.Process()
children = me.children(recursive=True)
for child in children:
    child.terminate()
gone, alive = psutil.wait_procs(children, timeout=3)
for child in alive:
    child.kill()
print(len(gone), "children stopped")
