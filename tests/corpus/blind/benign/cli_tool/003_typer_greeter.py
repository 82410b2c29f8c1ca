import typer

app = typer.Typer()


@app.command()
def hello(name: str, count: int = 1, shout: bool = False):
    for _ in range(count):
        msg = f"Hello {name}!"
        typer.echo(msg.upper() if shout else msg)


@app.command()
def bye(name: str):
    typer.echo(f"Goodbye {name}")


if __name__ == "__main__":
    app()
