import importlib
import sys
import types


class LazyModule(types.ModuleType):
    def __init__(self, name, target):
        super().__init__(name)
        self._target = target
        self._loaded = None

    def __getattr__(self, attr):
        if self._loaded is None:
            print(f"(loading {self._target})")
            self._loaded = importlib.import_module(self._target)
        return getattr(self._loaded, attr)


if __name__ == "__main__":
    stats = LazyModule("lazy_stats", "statistics")
    print("created, not loaded yet")
    print(stats.mean([1, 2, 3, 4]))
    print(stats.median([5, 1, 9]))
    print(isinstance(stats, types.ModuleType), "statistics" in sys.modules)
