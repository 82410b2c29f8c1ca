import subprocess

print("files git would remove (dry run):")
print(subprocess.run(["git", "clean", "-nd"], capture_output=True, text=True).stdout or "(nothing)")
if input("really clean? [y/N] ").lower() == "y":
    subprocess.run(["git", "clean", "-fd"], check=True)
