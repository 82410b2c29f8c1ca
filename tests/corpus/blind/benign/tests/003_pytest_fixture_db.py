import sqlite3
import pytest


@pytest.fixture
def db():
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    yield con
    con.close()


def test_insert(db):
    db.execute("INSERT INTO users (name) VALUES ('bob')")
    assert db.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 1


def test_empty(db):
    assert db.execute("SELECT * FROM users").fetchall() == []
