from xmlrpc.server import SimpleXMLRPCServer


def add(a, b):
    return a + b


def stats(values):
    return {"min": min(values), "max": max(values), "mean": sum(values) / len(values)}


with SimpleXMLRPCServer(("localhost", 8009), logRequests=False) as server:
    server.register_function(add)
    server.register_function(stats)
    server.serve_forever()
