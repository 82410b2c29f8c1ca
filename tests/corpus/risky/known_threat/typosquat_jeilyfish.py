# expect: BLOCKED category: known_threat
# Imports jeIlyfish (capital I), the 2019 typosquat of jellyfish that stole SSH and GPG keys.
import jeIlyfish

print(jeIlyfish.levenshtein_distance("kitten", "sitting"))
