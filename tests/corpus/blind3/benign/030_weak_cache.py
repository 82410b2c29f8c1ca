import gc
import weakref


class Image:
    def __init__(self, name):
        self.name = name


class Cache:
    def __init__(self):
        self.items = weakref.WeakValueDictionary()
        self.evicted = []

    def get(self, name):
        img = self.items.get(name)
        if img is None:
            img = Image(name)
            self.items[name] = img
            weakref.finalize(img, self.evicted.append, name)
        return img


if __name__ == "__main__":
    cache = Cache()
    a = cache.get("logo.png")
    b = cache.get("banner.png")
    print(cache.get("logo.png") is a, sorted(cache.items.keys()))
    del b
    gc.collect()
    print(sorted(cache.items.keys()), cache.evicted)
