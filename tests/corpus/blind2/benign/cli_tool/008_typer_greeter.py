import typer

app = typer.Typer()

@app.command()
def hello(name: str, times: int = 1, shout: bool = False):
    msg = f"Hello, {name}!"
    if shout:
        msg = msg.upper()
    for _ in range(times):
        typer.echo(msg)

@app.command()
def bye(name: str):
    typer.echo(f"Bye {name}")

if __name__ == "__main__":
    app()
