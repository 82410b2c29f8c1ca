# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_jeilyfish.py technique: alias+concat
import jeIlyfish as _m0
print(_m0.levenshtein_distance('ki' + 'tt' + 'en', 'si' + 'tt' + 'in' + 'g'))
