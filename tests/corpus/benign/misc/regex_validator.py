# expect: BENIGN category: misc
import re

PATTERNS = {
    "email": re.compile(r"^[\w.+-]+@[\w-]+\.[\w.-]+$"),
    "iso_date": re.compile(r"^\d{4}-\d{2}-\d{2}$"),
    "uk_postcode": re.compile(r"^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$", re.I),
}

samples = ["ada@example.com", "2024-02-30", "SW1A 1AA", "not valid"]
for sample in samples:
    matches = [name for name, pattern in PATTERNS.items() if pattern.match(sample)]
    print(f"{sample!r}: {matches or 'no match'}")
