import statistics

DATA = [12, 7, 3, 18, 7, 9]


def task_sum(data):
    return sum(data)


def task_mean(data):
    return round(statistics.mean(data), 2)


def task_mode(data):
    return statistics.mode(data)


def task_sorted(data):
    return sorted(data)


def run(names):
    results = {}
    for name in names:
        fn = globals().get(f"task_{name}")
        if not callable(fn):
            results[name] = "unknown task"
            continue
        results[name] = fn(DATA)
    return results


if __name__ == "__main__":
    available = sorted(n[5:] for n, v in globals().items() if n.startswith("task_") and callable(v))
    print("available:", available)
    for k, v in run(["sum", "mean", "mode", "sorted", "explode"]).items():
        print(f"{k:>7}: {v}")
