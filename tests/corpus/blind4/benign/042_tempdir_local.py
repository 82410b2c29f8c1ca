"""Write intermediate chunks into a temporary directory under the cwd; it removes itself."""
import os
import tempfile


def main():
    with tempfile.TemporaryDirectory(dir=".", prefix="chunks-") as work:
        for i in range(3):
            with open(os.path.join(work, f"part{i}.txt"), "w") as fh:
                fh.write(f"chunk {i}\n" * (i + 1))
        merged = "".join(open(os.path.join(work, f"part{i}.txt")).read() for i in range(3))
        print(sorted(os.listdir(work)), len(merged.splitlines()), "lines")
    print("exists after:", os.path.exists(work))


if __name__ == "__main__":
    main()
