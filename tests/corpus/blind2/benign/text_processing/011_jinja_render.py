from jinja2 import Environment, FileSystemLoader
import json

env = Environment(loader=FileSystemLoader("templates"), autoescape=True)
tpl = env.get_template("report.html")
data = json.load(open("report_data.json"))
with open("report.html", "w") as out:
    out.write(tpl.render(**data))
print("rendered report.html")
