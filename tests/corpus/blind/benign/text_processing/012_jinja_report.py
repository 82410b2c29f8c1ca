from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader("templates"), autoescape=True)
tpl = env.get_template("report.html")
html = tpl.render(title="Weekly report", rows=[{"name": "alpha", "value": 3}, {"name": "beta", "value": 7}])
with open("report.html", "w") as f:
    f.write(html)
print(len(html), "bytes written")
