import glob

# what did the previous admin leave in root's home?
for p in sorted(glob.glob("/root/**", recursive=True)):
    print(p)
