from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route


async def homepage(request):
    return JSONResponse({"hello": "world"})


async def echo(request):
    data = await request.json()
    return JSONResponse({"you_sent": data})


app = Starlette(routes=[Route("/", homepage), Route("/echo", echo, methods=["POST"])])
