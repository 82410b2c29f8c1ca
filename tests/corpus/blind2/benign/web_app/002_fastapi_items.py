from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI()
db: dict[int, "Item"] = {}

class Item(BaseModel):
    name: str
    price: float

@app.post("/items/{item_id}")
def create(item_id: int, item: Item):
    db[item_id] = item
    return item

@app.get("/items/{item_id}")
def read(item_id: int):
    if item_id not in db:
        raise HTTPException(404)
    return db[item_id]
