class Trie:
    def __init__(self):
        self.children = {}
        self.end = False

    def insert(self, word):
        node = self
        for ch in word:
            node = node.children.setdefault(ch, Trie())
        node.end = True

    def complete(self, prefix):
        node = self
        for ch in prefix:
            if ch not in node.children:
                return []
            node = node.children[ch]
        out = []
        def walk(n, acc):
            if n.end:
                out.append(prefix + acc)
            for c, child in sorted(n.children.items()):
                walk(child, acc + c)
        walk(node, "")
        return out


t = Trie()
for w in ("apple", "app", "application", "apt", "banana"):
    t.insert(w)
print(t.complete("ap"))
