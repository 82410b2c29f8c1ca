import unittest


def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


class LeapTests(unittest.TestCase):
    def test_years(self):
        cases = {1900: False, 2000: True, 2023: False, 2024: True}
        for year, expected in cases.items():
            with self.subTest(year=year):
                self.assertEqual(is_leap(year), expected)


if __name__ == "__main__":
    unittest.main(verbosity=2)
