class Rules:
    @staticmethod
    def conway(alive, n):
        return n == 3 or (alive and n == 2)

    @staticmethod
    def highlife(alive, n):
        return n in (3, 6) if not alive else n in (2, 3)

    @staticmethod
    def seeds(alive, n):
        return not alive and n == 2


def step(cells, rule):
    counts = {}
    for (r, c) in cells:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr or dc:
                    key = (r + dr, c + dc)
                    counts[key] = counts.get(key, 0) + 1
    return {k for k, n in counts.items() if rule(k in cells, n)}


def show(cells, size=6):
    return "\n".join("".join("#" if (r, c) in cells else "." for c in range(size)) for r in range(size))


if __name__ == "__main__":
    glider = {(0, 1), (1, 2), (2, 0), (2, 1), (2, 2)}
    for name in ("conway", "highlife", "seeds"):
        rule = getattr(Rules, name)
        cells = set(glider)
        for _ in range(4):
            cells = step(cells, rule)
        print(name, len(cells))
        print(show(cells))
