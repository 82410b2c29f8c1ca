import sqlite3
import pytest

@pytest.fixture
def db():
    con = sqlite3.connect(":memory:")
    con.execute("create table t (x int)")
    yield con
    con.close()

def test_insert(db):
    db.execute("insert into t values (1)")
    assert db.execute("select count(*) from t").fetchone()[0] == 1

def test_empty(db):
    assert db.execute("select * from t").fetchall() == []
