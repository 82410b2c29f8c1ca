# expect: BENIGN category: cli_tools
# Deploys a static site with rsync over ssh.
import subprocess

subprocess.run(
    ["rsync", "-az", "--delete", "-e", "ssh -i ~/.ssh/deploy_key", "public/", "deploy@web1.example.com:/srv/site/"],
    check=True,
)
