# expect: MEDIUM category: risky
# Loads a pickled model.
import pickle

with open("model.pkl", "rb") as handle:
    model = pickle.load(handle)
print(type(model))
