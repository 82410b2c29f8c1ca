from aiohttp import web
import os

ROOT = "/srv/share"

async def get_file(request):
    rel = request.match_info["tail"]
    full = os.path.join(ROOT, rel)  # %2e%2e%2f escapes ROOT
    return web.FileResponse(full)

app = web.Application()
app.router.add_get("/share/{tail:.*}", get_file)
web.run_app(app, port=8089)
