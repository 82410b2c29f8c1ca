# expect: BLOCKED category: known_threat
# Imports pygrata-utils, reported in 2022 for stealing AWS credentials.
import pygrata_utils

pygrata_utils.init()
