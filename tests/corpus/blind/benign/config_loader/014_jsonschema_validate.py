import json
import sys
import jsonschema

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1}},
    "required": ["name"],
}
with open(sys.argv[1] if len(sys.argv) > 1 else "service.json") as f:
    doc = json.load(f)
jsonschema.validate(doc, SCHEMA)
print("valid:", doc["name"])
