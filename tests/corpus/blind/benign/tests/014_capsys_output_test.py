def greet(names):
    for n in names:
        print(f"hi {n}")


def test_greet(capsys):
    greet(["ann", "bo"])
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["hi ann", "hi bo"]
    assert captured.err == ""
