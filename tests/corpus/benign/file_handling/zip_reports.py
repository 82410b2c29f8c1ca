# expect: BENIGN category: file_handling
import zipfile
from pathlib import Path

with zipfile.ZipFile("reports.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
    for report in Path("reports").glob("*.pdf"):
        archive.write(report, arcname=report.name)
print("done")
