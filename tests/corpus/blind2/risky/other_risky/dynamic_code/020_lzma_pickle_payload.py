import base64
import lzma
import pickle

BLOB = "/Td6WFoAAATm1rRGAgAhARYAAAB0L+WjAQAKcHJpbnQoJ2hpJykKAAAAAABvHT6/AAEjC8aMQHofqtzzfQEAAAAABFla"
obj = pickle.loads(lzma.decompress(base64.b64decode(BLOB)))
print(obj)
