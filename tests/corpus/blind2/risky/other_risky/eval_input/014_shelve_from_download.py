import pickle
import urllib.request

URL = "http://models.shared-storage.net/classifier.pkl"
with urllib.request.urlopen(URL) as r:
    clf = pickle.load(r)
print(clf.predict([[1.0, 2.0, 3.0]]))
