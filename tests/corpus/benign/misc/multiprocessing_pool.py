# expect: BENIGN category: misc
from multiprocessing import Pool

def square(n):
    return n * n

if __name__ == "__main__":
    with Pool(processes=4) as pool:
        print(pool.map(square, range(20)))
