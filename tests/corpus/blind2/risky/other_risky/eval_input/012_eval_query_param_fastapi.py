from fastapi import FastAPI

app = FastAPI()

@app.get("/filter")
def filter_rows(expr: str):
    rows = [{"a": i, "b": i * 2} for i in range(10)]
    return [r for r in rows if eval(expr, {}, r)]
