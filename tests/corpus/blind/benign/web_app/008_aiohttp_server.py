from aiohttp import web

async def hello(request):
    name = request.match_info.get("name", "world")
    return web.json_response({"greeting": f"hello, {name}"})

async def health(request):
    return web.Response(text="ok")

app = web.Application()
app.add_routes([web.get("/", hello), web.get("/hello/{name}", hello), web.get("/health", health)])
web.run_app(app, host="127.0.0.1", port=8080)
