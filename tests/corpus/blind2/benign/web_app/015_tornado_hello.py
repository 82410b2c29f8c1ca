import tornado.ioloop
import tornado.web

class Main(tornado.web.RequestHandler):
    def get(self):
        name = self.get_argument("name", "world")
        self.write({"hello": name})

app = tornado.web.Application([(r"/", Main)])
app.listen(8888, address="127.0.0.1")
tornado.ioloop.IOLoop.current().start()
