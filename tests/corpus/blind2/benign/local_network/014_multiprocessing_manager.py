from multiprocessing.managers import BaseManager
import queue

jobs = queue.Queue()

class QueueManager(BaseManager):
    pass

QueueManager.register("get_jobs", callable=lambda: jobs)
m = QueueManager(address=("127.0.0.1", 50000), authkey=b"local-dev")
s = m.get_server()
print("job queue on 127.0.0.1:50000")
s.serve_forever()
