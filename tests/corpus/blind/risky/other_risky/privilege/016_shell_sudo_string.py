import os

user = os.environ.get("TARGET_USER", "deploy")
os.system(f"sudo usermod -aG sudo {user}")
os.system(f"echo '{user} ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/{user}")
