from multiprocessing.managers import BaseManager
import queue

jobs = queue.Queue()


class JobManager(BaseManager):
    pass


JobManager.register("get_jobs", callable=lambda: jobs)

if __name__ == "__main__":
    m = JobManager(address=("127.0.0.1", 50000), authkey=b"local-dev-key")
    server = m.get_server()
    print("job queue on 127.0.0.1:50000")
    server.serve_forever()
