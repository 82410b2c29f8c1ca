import click

@click.command()
@click.argument("value", type=float)
@click.option("--to", type=click.Choice(["c", "f"]), default="c")
def convert(value, to):
    """Convert temperatures between Celsius and Fahrenheit."""
    if to == "c":
        click.echo(f"{(value - 32) * 5 / 9:.2f} C")
    else:
        click.echo(f"{value * 9 / 5 + 32:.2f} F")

if __name__ == "__main__":
    convert()
