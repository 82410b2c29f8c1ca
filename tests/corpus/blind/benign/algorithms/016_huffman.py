import heapq
from collections import Counter

def huffman(text):
    heap = [[w, [ch, ""]] for ch, w in Counter(text).items()]
    heapq.heapify(heap)
    while len(heap) > 1:
        lo, hi = heapq.heappop(heap), heapq.heappop(heap)
        for pair in lo[1:]:
            pair[1] = "0" + pair[1]
        for pair in hi[1:]:
            pair[1] = "1" + pair[1]
        heapq.heappush(heap, [lo[0] + hi[0]] + lo[1:] + hi[1:])
    return dict(heap[0][1:])

codes = huffman("this is an example of a huffman tree")
for ch, code in sorted(codes.items(), key=lambda kv: len(kv[1])):
    print(repr(ch), code)
