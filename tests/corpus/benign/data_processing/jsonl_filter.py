# expect: BENIGN category: data_processing
import json
import sys

threshold = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
kept = 0
with open("records.jsonl") as source, open("filtered.jsonl", "w") as target:
    for line in source:
        record = json.loads(line)
        if record.get("score", 0) >= threshold:
            target.write(json.dumps(record) + "\n")
            kept += 1
print("kept", kept)
