import copyreg
import pickle


class Vector:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z

    def __repr__(self):
        return f"Vector({self.x}, {self.y}, {self.z})"

    def __eq__(self, other):
        return all(getattr(self, s) == getattr(other, s) for s in self.__slots__)


def reduce_vector(v):
    return Vector, (v.x, v.y, v.z)


copyreg.pickle(Vector, reduce_vector)


if __name__ == "__main__":
    path = [Vector(0, 0, 0), Vector(1, 2, 3), Vector(-1, 0.5, 9)]
    blob = pickle.dumps(path)
    back = pickle.loads(blob)
    print(back, back == path)
    print("copy:", __import__("copy").deepcopy(path[1]))
