import pickle
from flask import Flask, request

app = Flask(__name__)

@app.post("/model")
def load_model():
    model = pickle.loads(request.data)
    return {"type": type(model).__name__}
