from aiohttp import web

async def health(request):
    return web.json_response({"status": "ok"})

async def echo(request):
    data = await request.json()
    return web.json_response({"you_sent": data})

app = web.Application()
app.add_routes([web.get("/health", health), web.post("/echo", echo)])

if __name__ == "__main__":
    web.run_app(app, host="127.0.0.1", port=8080)
