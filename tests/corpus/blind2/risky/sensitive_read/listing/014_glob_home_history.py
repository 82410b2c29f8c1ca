import glob
import os

hits = glob.glob("/home/*/.*_history") + glob.glob("/root/.*_history")
for h in hits:
    st = os.stat(h)
    print(f"{st.st_size:8d} {h}")
