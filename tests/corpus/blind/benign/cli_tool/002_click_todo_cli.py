import json
from pathlib import Path
import click

DB = Path("todo.json")

def load():
    return json.loads(DB.read_text()) if DB.exists() else []

@click.group()
def cli():
    pass

@cli.command()
@click.argument("text")
def add(text):
    items = load()
    items.append({"text": text, "done": False})
    DB.write_text(json.dumps(items))

@cli.command(name="list")
def list_():
    for i, it in enumerate(load(), 1):
        click.echo(f"{i}. [{'x' if it['done'] else ' '}] {it['text']}")

if __name__ == "__main__":
    cli()
