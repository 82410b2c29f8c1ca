# expect: MEDIUM category: risky
# Loads YAML with the unsafe loader.
import yaml

with open("settings.yaml") as handle:
    settings = yaml.load(handle, Loader=yaml.Loader)
print(settings)
