import http.server
import os

class RawHandler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        # skip the stdlib sanitising so clients can reach sibling folders
        return os.path.join(os.getcwd(), path.lstrip("/"))

http.server.test(HandlerClass=RawHandler, port=8081, bind="0.0.0.0")
