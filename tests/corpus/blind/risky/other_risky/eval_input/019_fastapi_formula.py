from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Formula(BaseModel):
    expression: str
    variables: dict[str, float] = {}


@app.post("/evaluate")
def evaluate(f: Formula):
    return {"value": eval(f.expression, {}, f.variables)}
