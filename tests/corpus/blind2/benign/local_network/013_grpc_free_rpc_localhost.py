from xmlrpc.server import SimpleXMLRPCServer

def add(a, b):
    return a + b

with SimpleXMLRPCServer(("127.0.0.1", 8001), logRequests=False) as server:
    server.register_function(add)
    print("xmlrpc on 127.0.0.1:8001")
    server.serve_forever()
