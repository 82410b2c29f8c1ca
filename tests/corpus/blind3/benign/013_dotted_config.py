class Config:
    def __init__(self, data, path="config"):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name):
        try:
            value = self._data[name]
        except KeyError:
            raise AttributeError(f"{self._path}.{name} is not set") from None
        if isinstance(value, dict):
            return Config(value, f"{self._path}.{name}")
        return value

    def __setattr__(self, name, value):
        self._data[name] = value

    def __dir__(self):
        return list(self._data)


if __name__ == "__main__":
    cfg = Config({"db": {"host": "localhost", "port": 5432}, "debug": False})
    print(cfg.db.host, cfg.db.port, cfg.debug)
    cfg.debug = True
    print(cfg.debug, dir(cfg))
    for key in ("host", "user"):
        print(key, getattr(cfg.db, key, "<default>"))
    try:
        cfg.cache.size
    except AttributeError as exc:
        print(exc)
