class Exporter:
    formats = {}

    def __init_subclass__(cls, fmt=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if fmt:
            Exporter.formats[fmt] = cls

    def export(self, rows):
        raise NotImplementedError


class CsvExporter(Exporter, fmt="csv"):
    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)


class MarkdownExporter(Exporter, fmt="md"):
    def export(self, rows):
        head, *body = rows
        lines = ["| " + " | ".join(map(str, head)) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(map(str, r)) + " |" for r in body]
        return "\n".join(lines)


if __name__ == "__main__":
    rows = [("lang", "year"), ("Python", 1991), ("Rust", 2010)]
    for fmt, cls in sorted(Exporter.formats.items()):
        print(f"== {fmt} ({cls.__name__})")
        print(cls().export(rows))
