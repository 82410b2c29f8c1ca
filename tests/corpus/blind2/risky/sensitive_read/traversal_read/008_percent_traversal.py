import sys

template_dir = "./templates"
name = sys.argv[1] if len(sys.argv) > 1 else "../../../../../root/.ssh/id_rsa"
path = "%s/%s" % (template_dir, name)
print(open(path).read())
