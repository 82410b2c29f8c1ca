import pytest
from flask import Flask

def create_app():
    app = Flask(__name__)

    @app.get("/ping")
    def ping():
        return {"pong": True}
    return app

@pytest.fixture
def client():
    return create_app().test_client()

def test_ping(client):
    r = client.get("/ping")
    assert r.status_code == 200
    assert r.get_json() == {"pong": True}
