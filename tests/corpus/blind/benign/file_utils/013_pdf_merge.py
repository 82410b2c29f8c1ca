import sys
from pypdf import PdfWriter

writer = PdfWriter()
for pdf in sys.argv[2:]:
    writer.append(pdf)
with open(sys.argv[1], "wb") as out:
    writer.write(out)
print(f"merged {len(sys.argv) - 2} files into {sys.argv[1]}")
