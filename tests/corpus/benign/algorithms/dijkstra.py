# expect: BENIGN category: algorithms
import heapq

def shortest_paths(graph, start):
    dist = {start: 0}
    queue = [(0, start)]
    while queue:
        d, node = heapq.heappop(queue)
        if d > dist.get(node, float("inf")):
            continue
        for neighbour, weight in graph.get(node, []):
            nd = d + weight
            if nd < dist.get(neighbour, float("inf")):
                dist[neighbour] = nd
                heapq.heappush(queue, (nd, neighbour))
    return dist

graph = {"a": [("b", 1), ("c", 4)], "b": [("c", 2), ("d", 5)], "c": [("d", 1)]}
print(shortest_paths(graph, "a"))
