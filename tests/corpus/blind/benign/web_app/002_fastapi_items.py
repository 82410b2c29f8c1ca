from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI(title="Items API")


class Item(BaseModel):
    name: str
    price: float
    tags: list[str] = []


db: dict[int, Item] = {}


@app.post("/items/{item_id}")
def create(item_id: int, item: Item):
    if item_id in db:
        raise HTTPException(409, "exists")
    db[item_id] = item
    return item


@app.get("/items/{item_id}")
def read(item_id: int):
    if item_id not in db:
        raise HTTPException(404)
    return db[item_id]
