import fire


class Calculator:
    """Simple calculator exposed on the command line."""

    def add(self, a, b):
        return a + b

    def mul(self, a, b):
        return a * b

    def mean(self, *nums):
        return sum(nums) / len(nums) if nums else 0


if __name__ == "__main__":
    fire.Fire(Calculator)
